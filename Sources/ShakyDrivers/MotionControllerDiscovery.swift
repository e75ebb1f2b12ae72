import Foundation
import ShakyCore

/// A game controller's accelerometer that can shake for hints next to the board's own sensor: a DualSense's or
/// DualShock 4's "Motion Sensors" node, a Joy-Con's or Switch Pro's IMU, a Wii Remote's accelerometer.
public struct MotionController: Sendable, CustomStringConvertible {
    /// The accelerometer's event node, usable, with a way to open it.
    public var device: DiscoveredDevice
    /// The buzzer identity of the same controller's buttons (what `Buzzers.Assign` and press-to-join keep), when
    /// its buttons' node was found: the event node under the same HID device.
    public var buttonsIdentity: String?

    /// Creates a description.
    public init(device: DiscoveredDevice, buttonsIdentity: String?) {
        self.device = device
        self.buttonsIdentity = buttonsIdentity
    }

    public var description: String {
        "\(device.devicePath) (\(device.deviceName))" + (buttonsIdentity.map { ", buttons \($0)" } ?? "")
    }
}

/// Finds the motion controllers among the evdev accelerometers, and each one's buttons.
///
/// A motion controller's kernel driver makes two (or three) input devices under one HID device: the buttons and
/// sticks, the motion sensors, sometimes a touchpad. The buttons' node is found as the sibling whose name the
/// motion node's name starts with (`… Wireless Controller` for `… Wireless Controller Motion Sensors`), else the
/// first sibling that is not an accelerometer or a touchpad; its identity is the one the buzzer discovery gives that
/// node (``EvdevBuzzerDiscovery/identity(udev:name:path:)``, made distinct from other present devices'), so it names
/// the same device a team's button is assigned on.
public struct MotionControllerDiscovery: Sendable {
    /// Creates a discovery.
    public init() {}

    /// Whether an evdev accelerometer called `name` belongs to a game controller rather than to the board.
    public static func isMotionController(name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasSuffix(" motion sensors") || lowered.hasSuffix("(imu)") || lowered.hasSuffix(" imu")
            || name == "Nintendo Wii Remote Accelerometer"
    }

    /// Every usable motion controller, in node order, but those at `excluding` (the board's own sensor).
    public func discover(excluding: Set<String> = []) -> [MotionController] {
        let found = EvdevDriver().discover(.evdev(path: nil), options: AccelerometerOptions()).filter {
            $0.isUsable && Self.isMotionController(name: $0.deviceName) && !excluding.contains($0.devicePath)
        }
        guard !found.isEmpty else { return [] }
        let inputs = ((try? UdevContext())?.enumerateOrEmpty(subsystem: "input") ?? []).filter {
            $0.devicePath?.hasPrefix("/dev/input/event") == true
        }
        let buzzers = EvdevBuzzerDiscovery().discoverAll().filter(\.isUsable)
        return found.map { device in
            MotionController(
                device: device, buttonsIdentity: Self.buttonsIdentity(of: device, among: inputs, buzzers: buzzers))
        }
    }

    /// The buzzer identity of the buttons next to `device`, among the event nodes `inputs`: the one `buzzers` (the
    /// buzzer discovery's usable candidates) give that node, else the one its hardware gives it.
    static func buttonsIdentity(
        of device: DiscoveredDevice, among inputs: [UdevDevice], buzzers: [BuzzerCandidate] = []
    ) -> String? {
        guard let sysfsPath = device.info?.sysfsPath else { return nil }
        let hardware = Self.hardwarePath(of: sysfsPath)
        let siblings = inputs.filter { input in
            input.sysfsPath != sysfsPath && Self.hardwarePath(of: input.sysfsPath) == hardware
                && input.properties["ID_INPUT_ACCELEROMETER"] != "1"
        }
        let named = siblings.first { input in
            guard let name = input.name, !name.isEmpty else { return false }
            return device.deviceName.hasPrefix(name)
        }
        guard
            let buttons = named
                ?? siblings.first(where: { !($0.name ?? "").lowercased().hasSuffix("touchpad") }),
            let path = buttons.devicePath
        else { return nil }
        if let buzzer = buzzers.first(where: { $0.devicePath == path }) { return buzzer.identity }
        return EvdevBuzzerDiscovery.identity(udev: buttons, name: buttons.name ?? "-", path: path)
    }

    /// A report of `controllers` for a person (`shakyd list-devices`): one line per motion controller that would
    /// shake next to the board's sensor, with the identity of its buttons.
    public static func listing(of controllers: [MotionController]) -> String {
        var lines = ["Shakers next to the board's sensor (motion controllers, with --shakers auto):"]
        if controllers.isEmpty { lines.append("  none found") }
        for controller in controllers {
            let buttons = controller.buttonsIdentity.map { "buttons \($0)" } ?? "its buttons not found"
            lines.append("  \(controller.device.devicePath)\t\(controller.device.deviceName)\t\(buttons)")
        }
        return lines.joined(separator: "\n")
    }

    /// The hardware an input device belongs to: `…/HID/input/inputN/eventN` → `…/HID`, without a leading `/sys`.
    static func hardwarePath(of sysfsPath: String) -> String {
        var parts = sysfsPath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.last?.hasPrefix("event") == true { parts.removeLast() }
        if parts.last?.hasPrefix("input") == true { parts.removeLast() }
        if parts.last == "input" { parts.removeLast() }
        if parts.first == "sys" { parts.removeFirst() }
        return "/" + parts.joined(separator: "/")
    }
}

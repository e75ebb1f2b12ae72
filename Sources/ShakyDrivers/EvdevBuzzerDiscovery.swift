import CEvdev
import Foundation
import ShakyCore

/// Finds the event devices that can serve as buzzers (keyboards, arcade encoders, Buzz! controllers,
/// `gpio-keys`, game controllers) and says why the others cannot.
public struct EvdevBuzzerDiscovery: Sendable {
    /// Where the LED class devices are (`/sys/class/leds`; umockdev redirects it under test).
    public var ledClassPath: String

    /// Creates a discovery.
    public init(ledClassPath: String = "/sys/class/leds") {
        self.ledClassPath = ledClassPath
    }

    /// Every event device udev knows, in node order (`event2` before `event10`), each usable or rejected; the usable
    /// ones have distinct identities (see ``distinctIdentities(_:)``).
    public func discoverAll() -> [BuzzerCandidate] {
        let devices = ((try? UdevContext())?.enumerateOrEmpty(subsystem: "input") ?? [])
            .filter { $0.devicePath?.hasPrefix("/dev/input/event") == true }
            .sorted { Self.isInNodeOrder($0.devicePath ?? "", $1.devicePath ?? "") }
        let lights = allLights()
        return Self.distinctIdentities(
            devices.compactMap { device in
                device.devicePath.map { examine(path: $0, udev: device, lights: lights) }
            })
    }

    /// The device at `path` as a candidate (udev properties looked up when udev knows it), with the identity its
    /// hardware gives it: when another present device has the same, the reader makes it distinct
    /// (``distinctIdentity(_:taken:)``).
    public func examine(path: String) -> BuzzerCandidate {
        let udev = (try? UdevContext())?.device(devicePath: path, subsystem: "input")
        return examine(path: path, udev: udev, lights: allLights())
    }

    func examine(path: String, udev: UdevDevice?, lights: [BuzzerLight]) -> BuzzerCandidate {
        let fallbackName = udev?.name ?? "-"
        let identity = Self.identity(udev: udev, name: fallbackName, path: path)
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            return BuzzerCandidate(
                devicePath: path, name: fallbackName, identity: identity, kind: nil, keys: [],
                sysfsPath: udev?.sysfsPath, rejection: "\(error)")
        }
        let capabilities = device.buzzerCapabilities()
        let identityFromName = Self.identity(udev: udev, name: capabilities.name, path: path)
        switch BuzzerClassifier().classify(capabilities) {
        case .failure(let rejection):
            return BuzzerCandidate(
                devicePath: path, name: capabilities.name, identity: identityFromName, kind: nil,
                keys: capabilities.keys, sysfsPath: udev?.sysfsPath, rejection: rejection.description)
        case .success(let kind):
            return BuzzerCandidate(
                devicePath: path, name: capabilities.name, identity: identityFromName, kind: kind,
                keys: capabilities.keys, lights: Self.lights(of: udev?.sysfsPath, among: lights),
                sysfsPath: udev?.sysfsPath)
        }
    }

    /// The identity assignments are kept by, as the hardware gives it: a Bluetooth device's address
    /// (`bluetooth:<uniq>`, from the input device's `uniq` attribute, when udev's `ID_BUS` is `bluetooth` or the
    /// input device's bus type is 0x05), else `ID_PATH` (the port it is plugged into; every pad behind one
    /// Bluetooth adapter has the adapter's), else `ID_SERIAL`, else the device's name (`name:NAME`), else its node.
    ///
    /// Two devices present at once may still share it (two nodes of one USB interface, identical devices with
    /// neither path nor serial): ``distinctIdentities(_:)`` and ``distinctIdentity(_:taken:)`` tell them apart.
    static func identity(udev: UdevDevice?, name: String, path: String) -> String {
        if let udev, udev.isBluetooth, let address = udev.uniq?.lowercased(), !address.isEmpty {
            return "bluetooth:\(address)"
        }
        for key in ["ID_PATH", "ID_SERIAL"] {
            if let value = udev?.properties[key], !value.isEmpty, value != "noserial" { return value }
        }
        return name == "-" ? path : "name:\(name)"
    }

    /// `identity` when no device in `taken` has it, else the first of `identity#2`, `identity#3`… that none has.
    ///
    /// The reader passes the identities of the devices it has open (those failing to read too, but not those
    /// unplugged), so a device plugged in later never takes a present device's identity, and one coming back gets
    /// the lowest free one: its own when it was the only one unplugged.
    public static func distinctIdentity(_ identity: String, taken: Set<String>) -> String {
        guard taken.contains(identity) else { return identity }
        var number = 2
        while taken.contains(ButtonID.numbered(identity, number)) { number += 1 }
        return ButtonID.numbered(identity, number)
    }

    /// `candidates` (in node order) with the usable ones' identities made distinct: the first of those sharing an
    /// identity keeps it, so assignments made while it was alone keep working; the next get `#2`, `#3`… in node
    /// order, which is the order the kernel created them in (and stays so across replugging and reboots while
    /// the same devices are plugged in). Rejected candidates keep theirs: only a usable device's identity names
    /// buttons, and a game controller's motion-sensor or touchpad node may come before its buttons' node.
    public static func distinctIdentities(_ candidates: [BuzzerCandidate]) -> [BuzzerCandidate] {
        var taken = Set<String>()
        return candidates.map { candidate in
            guard candidate.isUsable else { return candidate }
            var candidate = candidate
            candidate.identity = distinctIdentity(candidate.identity, taken: taken)
            taken.insert(candidate.identity)
            return candidate
        }
    }

    /// Whether node `first` comes before `second`: by the number after `event` (`event9` before `event10`), else
    /// by name.
    static func isInNodeOrder(_ first: String, _ second: String) -> Bool {
        func number(_ path: String) -> Int? {
            guard let range = path.range(of: "event", options: .backwards) else { return nil }
            return Int(path[range.upperBound...])
        }
        switch (number(first), number(second)) {
        case (let left?, let right?) where left != right: return left < right
        default: return first < second
        }
    }

    /// Every LED class device, with its real sysfs folder.
    func allLights() -> [BuzzerLight] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: ledClassPath)) ?? []
        return names.sorted().map { name in
            let link = "\(ledClassPath)/\(name)"
            let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)).map { target in
                target.hasPrefix("/")
                    ? target : URL(fileURLWithPath: ledClassPath).appendingPathComponent(target).standardized.path
            }
            let path = resolved ?? link
            let isMulticolour = FileManager.default.fileExists(atPath: "\(link)/multi_intensity")
            return BuzzerLight(path: path, name: name, isMulticolour: isMulticolour, slot: Self.slot(ofLight: name))
        }
    }

    /// The Buzz! handset of a `…::buzzN` LED, or the team slot of a `…shaky-teamN` one.
    static func slot(ofLight name: String) -> Int? {
        let function = name.split(separator: ":").last.map(String.init) ?? name
        for prefix in ["buzz", "shaky-team"] where function.hasPrefix(prefix) {
            if let number = Int(function.dropFirst(prefix.count)), (1...16).contains(number) { return number }
        }
        return nil
    }

    /// The lights of the hardware an input device belongs to: LEDs under the same parent device (a HID
    /// device's `leds/` folder), not the input device's own keyboard LEDs (caps lock and the like).
    static func lights(of sysfsPath: String?, among lights: [BuzzerLight]) -> [BuzzerLight] {
        guard let sysfsPath else { return [] }
        // …/HID/input/inputN/eventN → …/HID
        var parent = URL(fileURLWithPath: sysfsPath).deletingLastPathComponent()
        if parent.lastPathComponent.hasPrefix("input") { parent = parent.deletingLastPathComponent() }
        if parent.lastPathComponent == "input" { parent = parent.deletingLastPathComponent() }
        let prefix = parent.path + "/leds/"
        return lights.filter { $0.path.hasPrefix(prefix) || $0.path.hasPrefix("/sys" + prefix) }
    }

    /// Team lights not tied to a device (`gpio-leds` labelled `shaky-team1`…), by slot.
    public func teamLights() -> [BuzzerLight] {
        allLights().filter { $0.name.split(separator: ":").last?.hasPrefix("shaky-team") == true }
    }
}

extension UdevContext {
    /// Every device of `subsystem`, or none when udev cannot be asked.
    func enumerateOrEmpty(subsystem: String) -> [UdevDevice] {
        (try? enumerate(subsystem: subsystem)) ?? []
    }
}

extension EvdevDevice {
    /// What the classifier needs to know about this device.
    func buzzerCapabilities() -> BuzzerClassifier.Capabilities {
        let keyType = UInt32(EV_KEY)
        let keys =
            libevdev_has_event_type(handle, keyType) == 1
            ? (1...BuzzerKeys.highest).filter { libevdev_has_event_code(handle, keyType, UInt32($0)) == 1 } : []
        let hasRelative = libevdev_has_event_code(handle, UInt32(EV_REL), UInt32(REL_X)) == 1
        let touches = libevdev_has_event_code(handle, keyType, UInt32(BTN_TOUCH)) == 1
        let clicks = libevdev_has_event_code(handle, keyType, UInt32(BTN_LEFT)) == 1
        return BuzzerClassifier.Capabilities(
            bustype: Int(libevdev_get_id_bustype(handle)), vendor: Int(libevdev_get_id_vendor(handle)),
            product: Int(libevdev_get_id_product(handle)), version: Int(libevdev_get_id_version(handle)),
            name: name, keys: keys, isPointer: touches || (clicks && hasRelative),
            isAccelerometer: libevdev_has_property(handle, UInt32(INPUT_PROP_ACCELEROMETER)) == 1)
    }
}

extension EvdevBuzzerDiscovery {
    /// A report of `candidates` for a person: one line per event device, usable or rejected with why.
    public static func listing(of candidates: [BuzzerCandidate], grabKeyboards: Bool = false) -> String {
        var lines = ["Buzzers (key and button devices):"]
        if candidates.isEmpty { lines.append("  none found (no event devices, or no permission to list them)") }
        for candidate in candidates {
            var fields = [candidate.devicePath, candidate.name]
            if let kind = candidate.kind, candidate.isUsable {
                let grabbed = kind.grabbedByDefault || grabKeyboards
                fields.append(kind.rawValue)
                fields.append("id \(candidate.identity)")
                fields.append(keySummary(candidate.keys))
                fields.append(
                    candidate.lights.isEmpty
                        ? "no lights" : "lights " + candidate.lights.map(\.name).joined(separator: ", "))
                fields.append(grabbed ? "usable, grabbed" : "usable, not grabbed (shared with the console)")
            } else {
                fields.append("rejected: \(candidate.rejection ?? "-")")
            }
            lines.append("  " + fields.joined(separator: "\t"))
        }
        let usable = candidates.filter(\.isUsable).count
        lines.append("Buzzer devices usable: \(usable)")
        return lines.joined(separator: "\n")
    }

    /// `3 keys (KEY_A, KEY_B, KEY_C)`, or the first and last names of a long list.
    static func keySummary(_ keys: [Int]) -> String {
        let names = keys.map(BuzzerKeys.name)
        let noun = keys.count == 1 ? "key" : "keys"
        if names.count <= 6 { return "\(keys.count) \(noun) (\(names.joined(separator: ", ")))" }
        return "\(keys.count) \(noun) (\(names.prefix(3).joined(separator: ", "))… \(names.last ?? ""))"
    }
}

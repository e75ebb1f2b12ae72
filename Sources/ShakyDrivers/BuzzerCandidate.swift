import CEvdev
import Foundation

/// What kind of key or button device a buzzer candidate is; it decides whether the device is grabbed.
public enum BuzzerDeviceKind: String, Sendable, Codable, CaseIterable {
    /// PlayStation Buzz! controllers (kernel `hid-sony`): 4 handsets × 5 buttons, one LED per handset.
    case buzz
    /// Raspberry Pi or other GPIO buttons (kernel `gpio-keys`, from `dtoverlay=gpio-key`).
    case gpioKeys = "gpio-keys"
    /// A USB arcade-button encoder or other joystick (`BTN_TRIGGER`…`BTN_BASE6`).
    case arcade
    /// A game controller (`BTN_SOUTH`, `BTN_EAST`…): DualSense, DualShock 4, Switch Pro, Joy-Con.
    case gamepad
    /// A keyboard: each team its own key. Not grabbed unless asked, since the host may type on it.
    case keyboard
    /// Some other device with keys or buttons (a USB foot switch, a presenter…).
    case buttons

    /// Whether presses on it are kept from the console and the desktop by default (`EVIOCGRAB`).
    public var grabbedByDefault: Bool { self != .keyboard }
}

/// A light a buzzer device offers, in `/sys/class/leds`.
public struct BuzzerLight: Sendable, Hashable, Codable {
    /// The LED's sysfs folder (`/sys/class/leds/0003:054C:0002.0001::buzz1`).
    public var path: String
    /// The LED's name (the folder's last component).
    public var name: String
    /// Whether it is a multicolour LED (`multi_intensity`), lit in the team's colour.
    public var isMulticolour: Bool
    /// The Buzz! handset (1–4) or the team slot (1-based, from a `shaky-teamN` label) it belongs to.
    public var slot: Int?

    /// Creates a light description.
    public init(path: String, name: String, isMulticolour: Bool, slot: Int?) {
        self.path = path
        self.name = name
        self.isMulticolour = isMulticolour
        self.slot = slot
    }
}

/// An event device looked at as a possible buzzer: usable (with its keys and lights) or rejected (with why).
public struct BuzzerCandidate: Sendable, Equatable {
    /// The device node (`/dev/input/event5`).
    public var devicePath: String
    /// The device's name as the kernel gives it.
    public var name: String
    /// The stable identity assignments are kept by: `bluetooth:<address>` for a Bluetooth device, else udev's
    /// `ID_PATH`, else `ID_SERIAL`, else `name:NAME`; `#2`, `#3`… added for a second or third device present with
    /// the same (see ``EvdevBuzzerDiscovery/distinctIdentities(_:)``).
    public var identity: String
    /// What kind of device it is, when usable.
    public var kind: BuzzerDeviceKind?
    /// The key and button codes it reports.
    public var keys: [Int]
    /// Its lights (LED class devices of the same hardware).
    public var lights: [BuzzerLight]
    /// The input device's sysfs folder, when udev knows it.
    public var sysfsPath: String?
    /// Why it cannot serve as a buzzer; `nil` when it can.
    public var rejection: String?

    /// Whether it can serve.
    public var isUsable: Bool { rejection == nil }

    /// Creates a description.
    public init(
        devicePath: String, name: String, identity: String, kind: BuzzerDeviceKind?, keys: [Int],
        lights: [BuzzerLight] = [], sysfsPath: String? = nil, rejection: String? = nil
    ) {
        self.devicePath = devicePath
        self.name = name
        self.identity = identity
        self.kind = kind
        self.keys = keys
        self.lights = lights
        self.sysfsPath = sysfsPath
        self.rejection = rejection
    }

    /// The light for `button` on this device: the Buzz! handset's LED, else the device's only light.
    public func light(for key: Int) -> BuzzerLight? {
        if kind == .buzz, let handset = BuzzerKeys.buzzHandset(key) {
            return lights.first { $0.slot == handset }
        }
        let own = lights.filter { $0.slot == nil }
        return own.count == 1 ? own[0] : own.first { $0.isMulticolour }
    }
}

/// Key codes and names: which codes make a buzzer, and how the Buzz! handsets are laid out.
public enum BuzzerKeys {
    /// `BTN_TRIGGER_HAPPY1`, the first Buzz! code (hid-sony maps the 20 buttons to HAPPY1…HAPPY20).
    public static let triggerHappy1 = 0x2c0
    /// The highest key code (`KEY_MAX`).
    public static let highest = 0x2ff
    /// Keys that belong to the system, not to a team: power, sleep, volume, brightness, lid and the like.
    static let systemKeys: Set<Int> = [
        113, 114, 115,  // KEY_MUTE, KEY_VOLUMEDOWN, KEY_VOLUMEUP
        116, 142, 143, 205,  // KEY_POWER, KEY_SLEEP, KEY_WAKEUP, KEY_SUSPEND
        224, 225, 236,  // KEY_BRIGHTNESSDOWN, KEY_BRIGHTNESSUP, KEY_BATTERY
        237, 238, 240, 247,  // KEY_BLUETOOTH, KEY_WLAN, KEY_UNKNOWN, KEY_RFKILL
        0x1d0,  // KEY_FN
    ]

    /// The Buzz! handset (1–4) a hid-sony code belongs to; `nil` for other codes.
    public static func buzzHandset(_ key: Int) -> Int? {
        let offset = key - triggerHappy1
        guard (0..<20).contains(offset) else { return nil }
        return offset / 5 + 1
    }

    /// The big red buzz button of each Buzz! handset (offset 1 of 5 in hid-sony's `buzz_keymap`).
    public static func isBuzzButton(_ key: Int) -> Bool {
        let offset = key - triggerHappy1
        return (0..<20).contains(offset) && offset % 5 == 0
    }

    /// The kernel's name for a key code (`KEY_SPACE`, `BTN_TRIGGER_HAPPY6`), or `KEY_<n>`.
    public static func name(_ key: Int) -> String {
        guard (0...highest).contains(key), let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(key))
        else { return "KEY_\(key)" }
        return String(cString: name)
    }

    /// The code for a key name (`KEY_SPACE`, `space`, `BTN_TRIGGER_HAPPY6`) or a number (`57`, `0x2c5`); `nil` for
    /// `KEY_RESERVED` (0), which the kernel never sends for a key, so a button given it would never buzz.
    public static func code(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A number is a code, never a name: "0" is not KEY_0 (the digit's key, code 11).
        if let number = Int(trimmed) { return (1...highest).contains(number) ? number : nil }
        if trimmed.lowercased().hasPrefix("0x"), let number = Int(trimmed.dropFirst(2), radix: 16) {
            return (1...highest).contains(number) ? number : nil
        }
        let upper = trimmed.uppercased()
        for candidate in [upper, "KEY_" + upper] {
            let code = libevdev_event_code_from_name(UInt32(EV_KEY), candidate)
            if code > 0 { return Int(code) }
        }
        return nil
    }
}

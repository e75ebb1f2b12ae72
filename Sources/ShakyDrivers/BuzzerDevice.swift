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
    /// The stable identity assignments are kept by: udev's `ID_PATH`, else `ID_SERIAL`, else `name:NAME`.
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

    /// The code for a key name (`KEY_SPACE`, `space`, `BTN_TRIGGER_HAPPY6`) or a number (`57`, `0x2c5`).
    public static func code(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed), (0...highest).contains(number) { return number }
        if trimmed.lowercased().hasPrefix("0x"), let number = Int(trimmed.dropFirst(2), radix: 16),
            (0...highest).contains(number)
        {
            return number
        }
        let upper = trimmed.uppercased()
        for candidate in [upper, "KEY_" + upper] {
            let code = libevdev_event_code_from_name(UInt32(EV_KEY), candidate)
            if code >= 0 { return Int(code) }
        }
        return nil
    }
}

/// Decides from a device's capabilities whether it can be a buzzer, and what kind; pure, so testable.
public struct BuzzerClassifier: Sendable {
    /// What an event device reports about itself.
    public struct Capabilities: Sendable {
        /// Bus type, vendor and product (`EVIOCGID`).
        public var bustype: Int
        public var vendor: Int
        public var product: Int
        public var version: Int
        /// The device's name.
        public var name: String
        /// Key and button codes.
        public var keys: [Int]
        /// Whether it reports relative motion (REL_X) or absolute touch positions with `BTN_TOUCH`.
        public var isPointer: Bool
        /// Whether it has `INPUT_PROP_ACCELEROMETER`.
        public var isAccelerometer: Bool

        /// Creates a capability list.
        public init(
            bustype: Int, vendor: Int, product: Int, version: Int, name: String, keys: [Int], isPointer: Bool,
            isAccelerometer: Bool
        ) {
            self.bustype = bustype
            self.vendor = vendor
            self.product = product
            self.version = version
            self.name = name
            self.keys = keys
            self.isPointer = isPointer
            self.isAccelerometer = isAccelerometer
        }
    }

    /// Creates a classifier.
    public init() {}

    /// The device's kind, or why it cannot serve.
    public func classify(_ device: Capabilities) -> Result<BuzzerDeviceKind, BuzzerRejection> {
        if device.isAccelerometer { return .failure(.accelerometer) }
        if device.keys.isEmpty { return .failure(.noKeys) }
        let keys = Set(device.keys)
        // hid-sony: USB_VENDOR_ID_SONY with the wired or wireless Buzz! controller.
        if device.vendor == 0x054c, device.product == 0x0002 || device.product == 0x1000 { return .success(.buzz) }
        // gpio_keys.c: BUS_HOST, vendor 0x0001, product 0x0001, version 0x0100.
        if device.bustype == 0x19, device.vendor == 1, device.product == 1, device.version == 0x0100 {
            return .success(.gpioKeys)
        }
        if keys.contains(where: { (0x120...0x12f).contains($0) }) { return .success(.arcade) }
        if keys.contains(where: { (0x130...0x13e).contains($0) }) { return .success(.gamepad) }
        if device.isPointer { return .failure(.pointer) }
        if keys.isSubset(of: BuzzerKeys.systemKeys) { return .failure(.systemKeysOnly) }
        // KEY_Q…KEY_P, KEY_A…KEY_L and KEY_Z…KEY_M: a typing keyboard.
        let letters = Array(16...25) + Array(30...38) + Array(44...50)
        if letters.allSatisfy(keys.contains) { return .success(.keyboard) }
        return .success(.buttons)
    }
}

/// Why an event device cannot serve as a buzzer.
public enum BuzzerRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// It is an accelerometer.
    case accelerometer
    /// It has no keys or buttons.
    case noKeys
    /// It is a mouse, touchpad or touchscreen.
    case pointer
    /// It has only power, sleep, volume and similar keys.
    case systemKeysOnly
    /// It could not be opened or read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .accelerometer: "an accelerometer, not a button"
        case .noKeys: "no keys or buttons"
        case .pointer: "a mouse, touchpad or touchscreen: its buttons are for pointing"
        case .systemKeysOnly: "only system keys (power, sleep, volume…)"
        case .unreadable(let reason): reason
        }
    }
}

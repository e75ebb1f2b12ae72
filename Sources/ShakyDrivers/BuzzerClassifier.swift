import CEvdev
import Foundation

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

import Foundation
import ShakyCore

/// A host's description of an input (evdev) accelerometer that shakyd does not know: which device it is and how
/// to read it — what the udev properties `SHAKY_ACCEL_*` say, written in the configuration file instead.
///
/// In `/etc/shaky/shakyd.conf`, a list under `accelerometers:`; each entry names the device by one or more of
/// `name` (as the kernel names it; `*` stands for any text), `id` (`vendor:product`, hexadecimal) and `driver`
/// (the kernel driver of its HID or platform device), and says at least one of:
/// ```yaml
/// accelerometers:
///   - name: "Acme Tilt Sensor"
///     units-per-g: 256            # its reading along gravity at rest (one number, or three for x, y, z)
///     axes: ABS_X ABS_Y ABS_Z     # the ABS axes read as x, y, z
///     center: 0                   # its reading at 0 g (one number, or three)
///     frame: "lid: +z up when open"
/// ```
/// A description wins over udev properties and the known-device table for the device it matches.
public struct AccelerometerDescription: Sendable, Equatable {
    /// The device's name pattern (`*` stands for any text), if it is matched by name.
    public var name: String?
    /// The vendor and product IDs, if it is matched by them.
    public var vendorProduct: VendorProduct?
    /// The kernel driver (`wiimote`, `playstation`), if it is matched by it.
    public var driver: String?
    /// The ABS axes read as x, y and z.
    public var axes: (x: UInt16, y: UInt16, z: UInt16)?
    /// Raw units per g, per axis.
    public var unitsPerG: (x: Double, y: Double, z: Double)?
    /// The raw value at 0 g, per axis.
    public var center: (x: Double, y: Double, z: Double)?
    /// Which way the axes point, in words.
    public var frame: String?

    /// A vendor and product ID pair (`057e:0306`).
    public struct VendorProduct: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// The vendor ID.
        public var vendor: UInt16
        /// The product ID.
        public var product: UInt16

        /// Creates IDs.
        public init(vendor: UInt16, product: UInt16) {
            self.vendor = vendor
            self.product = product
        }

        /// Parses `vendor:product` in hexadecimal (`057e:0306`).
        public init?(parsing text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...4).contains(parts[0].count), (1...4).contains(parts[1].count),
                let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
            else { return nil }
            self.init(vendor: vendor, product: product)
        }

        public var description: String {
            func hex(_ value: UInt16) -> String {
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 4 - digits.count) + digits
            }
            return "\(hex(vendor)):\(hex(product))"
        }
    }

    /// One field of a description that cannot be used, with the key it was given under.
    public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key (`units-per-g`), or `nil` when the entry as a whole is wrong.
        public var key: String?
        /// What is wrong, and what would be right.
        public var problem: String

        public var description: String { problem }
    }

    /// The keys an entry may have, in the order they are documented.
    public static let keys = ["name", "id", "driver", "axes", "units-per-g", "center", "frame"]

    /// Creates a description from already checked values.
    public init(
        name: String? = nil, vendorProduct: VendorProduct? = nil, driver: String? = nil,
        axes: (x: UInt16, y: UInt16, z: UInt16)? = nil, unitsPerG: (x: Double, y: Double, z: Double)? = nil,
        center: (x: Double, y: Double, z: Double)? = nil, frame: String? = nil
    ) {
        self.name = name
        self.vendorProduct = vendorProduct
        self.driver = driver
        self.axes = axes
        self.unitsPerG = unitsPerG
        self.center = center
        self.frame = frame
    }

    /// Reads an entry from its fields as text (a list of numbers or axes given as words separated by spaces or
    /// commas), refusing unknown keys, bad values and an entry that names no device or says nothing about it.
    public init(fields: [String: String]) throws(FieldError) {
        for key in fields.keys.sorted() where !Self.keys.contains(key) {
            throw FieldError(
                key: key,
                problem: "unknown key “\(key)” in an accelerometer entry; known: \(Self.keys.joined(separator: ", "))")
        }
        func nonEmpty(_ key: String) throws(FieldError) -> String? {
            guard let value = fields[key] else { return nil }
            guard !value.trimmingWhitespace().isEmpty else { throw FieldError(key: key, problem: "\(key) is empty") }
            return value
        }
        name = try nonEmpty("name")
        driver = try nonEmpty("driver")
        frame = try nonEmpty("frame")
        if let text = try nonEmpty("id") {
            guard let ids = VendorProduct(parsing: text) else {
                throw FieldError(
                    key: "id", problem: "id “\(text)” must be vendor:product in hexadecimal, such as 057e:0306")
            }
            vendorProduct = ids
        }
        if let text = try nonEmpty("axes") {
            guard let codes = Self.axes(parsing: text) else {
                throw FieldError(key: "axes", problem: "axes “\(text)” must name three axes among ABS_X … ABS_RZ")
            }
            axes = codes
        }
        if let text = try nonEmpty("units-per-g") {
            guard let units = Self.triple(parsing: text), units.x > 0, units.y > 0, units.z > 0 else {
                throw FieldError(
                    key: "units-per-g", problem: "units-per-g “\(text)” must be one positive number or three")
            }
            unitsPerG = units
        }
        if let text = try nonEmpty("center") {
            guard let values = Self.triple(parsing: text) else {
                throw FieldError(key: "center", problem: "center “\(text)” must be one number or three")
            }
            center = values
        }
        guard name != nil || vendorProduct != nil || driver != nil else {
            throw FieldError(
                key: nil, problem: "an accelerometer entry must say which device it is: name, id or driver")
        }
        guard axes != nil || unitsPerG != nil || center != nil || frame != nil else {
            throw FieldError(
                key: nil,
                problem: "an accelerometer entry must say how to read the device: units-per-g, axes, center or frame")
        }
    }

    /// Whether this describes the device called `name` with `inputID`, created by the kernel driver `driver`.
    public func matches(
        name deviceName: String, inputID: KnownAccelerometer.InputID?, driver deviceDriver: String?
    )
        -> Bool
    {
        if let name, !KnownAccelerometer.name(deviceName, matches: name) { return false }
        if let vendorProduct {
            guard let inputID, inputID.vendor == vendorProduct.vendor, inputID.product == vendorProduct.product else {
                return false
            }
        }
        if let driver {
            guard let deviceDriver, Self.driverName(deviceDriver) == Self.driverName(driver) else { return false }
        }
        return true
    }

    /// A driver's name without the `hid-` prefix and with `_` as `-`: `hid-wiimote`, `wiimote` are the same.
    static func driverName(_ text: String) -> String {
        let lowered = text.lowercased().replacingOccurrences(of: "_", with: "-")
        return lowered.hasPrefix("hid-") ? String(lowered.dropFirst(4)) : lowered
    }

    /// Three ABS axes by name (`ABS_RX ABS_RY ABS_RZ`, `rx, ry, rz`), or `nil`.
    static func axes(parsing text: String) -> (x: UInt16, y: UInt16, z: UInt16)? {
        let parsed = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { EvdevAxes.code(named: String($0)) }
        guard parsed.count == 3, let x = parsed[0], let y = parsed[1], let z = parsed[2] else { return nil }
        return (x, y, z)
    }

    /// One finite number for all three axes, or three.
    static func triple(parsing text: String) -> (x: Double, y: Double, z: Double)? {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
        guard numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        let values = numbers.compactMap { $0 }
        switch values.count {
        case 1: return (values[0], values[0], values[0])
        case 3: return (values[0], values[1], values[2])
        default: return nil
        }
    }

    public static func == (lhs: AccelerometerDescription, rhs: AccelerometerDescription) -> Bool {
        lhs.name == rhs.name && lhs.vendorProduct == rhs.vendorProduct && lhs.driver == rhs.driver
            && lhs.axes.map { [$0.x, $0.y, $0.z] } == rhs.axes.map { [$0.x, $0.y, $0.z] }
            && lhs.unitsPerG.map { [$0.x, $0.y, $0.z] } == rhs.unitsPerG.map { [$0.x, $0.y, $0.z] }
            && lhs.center.map { [$0.x, $0.y, $0.z] } == rhs.center.map { [$0.x, $0.y, $0.z] } && lhs.frame == rhs.frame
    }
}

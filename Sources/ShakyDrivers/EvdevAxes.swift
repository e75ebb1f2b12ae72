import Foundation
import ShakyCore

/// How an evdev accelerometer's raw ABS values become m/s²: which axes, the raw value at 0 g, and units per g.
public struct EvdevAxes: Sendable, Equatable {
    /// The ABS codes read as x, y and z (`ABS_X`…: 0, 1, 2; `ABS_RX`…: 3, 4, 5).
    public var codes: (x: UInt16, y: UInt16, z: UInt16)
    /// Each axis' units per g.
    public var unitsPerG: (x: Double, y: Double, z: Double)
    /// Each axis' raw value at 0 g.
    public var center: (x: Double, y: Double, z: Double)

    /// Creates a conversion; ABS_X/Y/Z centred on 0 unless told otherwise.
    public init(
        codes: (x: UInt16, y: UInt16, z: UInt16) = (0, 1, 2), unitsPerG: (x: Double, y: Double, z: Double),
        center: (x: Double, y: Double, z: Double) = (0, 0, 0)
    ) {
        self.codes = codes
        self.unitsPerG = unitsPerG
        self.center = center
    }

    /// Converts raw axis values to m/s².
    public func convert(x: Int32, y: Int32, z: Int32) -> (x: Double, y: Double, z: Double) {
        let g = AccelSample.standardGravity
        return (
            (Double(x) - center.x) / unitsPerG.x * g, (Double(y) - center.y) / unitsPerG.y * g,
            (Double(z) - center.z) / unitsPerG.z * g
        )
    }

    /// The codes as a list, x first.
    var codeList: [UInt16] { [codes.x, codes.y, codes.z] }

    public static func == (lhs: EvdevAxes, rhs: EvdevAxes) -> Bool {
        lhs.codes == rhs.codes && lhs.unitsPerG == rhs.unitsPerG && lhs.center == rhs.center
    }

    /// The name of an ABS code (`ABS_RX`), or its number.
    static func name(of code: UInt16) -> String {
        let names = ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ"]
        return Int(code) < names.count ? names[Int(code)] : "ABS code \(code)"
    }

    /// The ABS code named `name` (`ABS_RX`, `rx`, `3`), if it is one of the six motion axes.
    static func code(named name: String) -> UInt16? {
        let names = ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ"]
        let upper = name.uppercased()
        if let index = names.firstIndex(where: { $0 == upper || $0 == "ABS_" + upper }) { return UInt16(index) }
        if let number = UInt16(name), number < 6 { return number }
        return nil
    }
}

/// What an event device offers, as read from it (libevdev), for deciding whether and how to read it.
public struct EvdevCapabilities: Sendable, Equatable {
    /// One ABS axis' range and resolution.
    public struct Axis: Sendable, Equatable {
        /// The smallest value.
        public var minimum: Int32
        /// The largest value.
        public var maximum: Int32
        /// Units per g as the kernel reports it (0: none).
        public var resolution: Int32
        /// The axis' value when it was read.
        public var value: Int32

        /// Creates an axis.
        public init(minimum: Int32, maximum: Int32, resolution: Int32, value: Int32 = 0) {
            self.minimum = minimum
            self.maximum = maximum
            self.resolution = resolution
            self.value = value
        }
    }

    /// The device's name (`Nintendo Wii Remote Accelerometer`).
    public var name: String
    /// Bus, vendor and product.
    public var inputID: KnownAccelerometer.InputID?
    /// Whether it has `INPUT_PROP_ACCELEROMETER`.
    public var isAccelerometer: Bool
    /// Its ABS axes by code, among ABS_X…ABS_RZ.
    public var axes: [UInt16: Axis]
    /// Whether it sends `MSC_TIMESTAMP` (the hardware's own sample times).
    public var sendsTimestamps: Bool

    /// Creates a description.
    public init(
        name: String, inputID: KnownAccelerometer.InputID? = nil, isAccelerometer: Bool, axes: [UInt16: Axis],
        sendsTimestamps: Bool = false
    ) {
        self.name = name
        self.inputID = inputID
        self.isAccelerometer = isAccelerometer
        self.axes = axes
        self.sendsTimestamps = sendsTimestamps
    }
}

/// How to read one evdev accelerometer: its axes and frame, decided from the device, the known-device table and
/// udev properties (in that order of weight: udev properties win, then the table, then the kernel's numbers).
///
/// The udev properties, for a device shakyd does not know:
///
/// | property | meaning |
/// |---|---|
/// | `SHAKY_ACCEL_UNITS_PER_G=N` | raw units per g (one number, or three for x, y, z) — makes any input device a candidate |
/// | `SHAKY_ACCEL_AXES=ABS_RX ABS_RY ABS_RZ` | the ABS axes read as x, y, z (default ABS_X ABS_Y ABS_Z) |
/// | `SHAKY_ACCEL_CENTER=N` | the raw value at 0 g (one number, or three) |
/// | `SHAKY_ACCEL_FRAME=text` | which way the axes point, for `list-devices` and recordings |
public struct EvdevAccelerometerProfile: Sendable, Equatable {
    /// How raw values become m/s².
    public var axes: EvdevAxes
    /// Which way the axes point.
    public var frame: String
    /// The table entry used, if any.
    public var known: KnownAccelerometer?

    /// The udev properties that describe an unknown device.
    public static let unitsProperty = "SHAKY_ACCEL_UNITS_PER_G"
    static let axesProperty = "SHAKY_ACCEL_AXES"
    static let centerProperty = "SHAKY_ACCEL_CENTER"
    static let frameProperty = "SHAKY_ACCEL_FRAME"

    /// Decides how to read `device`, or throws with what would make it readable (the error's suggestion is the
    /// configuration entry and the udev rule that would). A matching `description` from the configuration file
    /// wins over the udev properties, which win over the known-device table.
    public static func resolve(
        _ device: EvdevCapabilities, udevProperties: [String: String] = [:],
        description: AccelerometerDescription? = nil, node: String = "the device"
    ) throws(EvdevSetupError) -> EvdevAccelerometerProfile {
        let known = KnownAccelerometers.evdevEntry(name: device.name, inputID: device.inputID)
        func refuse(_ problem: String, suggestion: String? = nil) -> EvdevSetupError {
            EvdevSetupError(device: node, problem: problem, suggestion: suggestion)
        }

        var codes: (x: UInt16, y: UInt16, z: UInt16) = known?.axes?.codes ?? (0, 1, 2)
        if let text = udevProperties[axesProperty] {
            guard let parsed = AccelerometerDescription.axes(parsing: text) else {
                throw refuse("\(axesProperty)=\"\(text)\" must name three axes among ABS_X … ABS_RZ")
            }
            codes = parsed
        }
        if let described = description?.axes { codes = described }
        let codeList = [codes.x, codes.y, codes.z]
        let missing = codeList.filter { device.axes[$0] == nil }
        guard missing.isEmpty else {
            let have = device.axes.keys.sorted().map(EvdevAxes.name(of:)).joined(separator: " ")
            throw refuse(
                "no \(missing.map(EvdevAxes.name(of:)).joined(separator: "/")) axes (it has: \(have.isEmpty ? "none" : have))",
                suggestion: have.isEmpty
                    ? nil : suggestion(for: device, setting: [("axes", "ABS_RX ABS_RY ABS_RZ")], measured: nil))
        }

        let udevUnits = try udevProperties[unitsProperty].map { text throws(EvdevSetupError) in
            guard let values = AccelerometerDescription.triple(parsing: text), values.x > 0, values.y > 0, values.z > 0
            else {
                throw refuse("\(unitsProperty)=\"\(text)\" must be one positive number or three")
            }
            return values
        }
        let udevCenter = try udevProperties[centerProperty].map { text throws(EvdevSetupError) in
            guard let values = AccelerometerDescription.triple(parsing: text) else {
                throw refuse("\(centerProperty)=\"\(text)\" must be one number or three")
            }
            return values
        }
        let overrideUnits = description?.unitsPerG ?? udevUnits
        let center = description?.center ?? udevCenter ?? known?.axes?.center ?? (0, 0, 0)
        func unitsSuggestion() -> String {
            suggestion(
                for: device, setting: [("units-per-g", "N")],
                measured: measuredMagnitude(device, codes: codeList, center: center))
        }
        if let unreadable = known?.unreadable, overrideUnits == nil {
            throw refuse(unreadable)
        }
        guard device.isAccelerometer || known != nil || overrideUnits != nil || description != nil else {
            throw refuse(
                "not marked as an accelerometer (no INPUT_PROP_ACCELEROMETER) and not a known device; if it is one, "
                    + "describe it (`shakyd list-devices` shows how)",
                suggestion: unitsSuggestion())
        }
        let units: (x: Double, y: Double, z: Double)
        if let overrideUnits {
            units = overrideUnits
        } else if let knownUnits = known?.axes?.unitsPerG {
            units = knownUnits
        } else {
            let resolutions: [Int32] = codeList.map { code in device.axes[code]?.resolution ?? 0 }
            guard resolutions.allSatisfy({ $0 > 0 }) else {
                var unresolved: [String] = []
                for (code, resolution) in zip(codeList, resolutions) where resolution <= 0 {
                    unresolved.append(EvdevAxes.name(of: code))
                }
                throw refuse(
                    unresolved.joined(separator: "/") + " report no resolution, so the units per g are unknown; "
                        + "describe it (`shakyd list-devices` shows how), or set EVDEV_ABS_0\(codes.x)=::N in hwdb",
                    suggestion: unitsSuggestion())
            }
            units = (Double(resolutions[0]), Double(resolutions[1]), Double(resolutions[2]))
        }
        let frame =
            description?.frame ?? udevProperties[frameProperty] ?? known?.frame
            ?? (udevProperties["ACCEL_MOUNT_MATRIX"] != nil
                ? KnownAccelerometers.deviceFrame : "the device's own axes as its driver reports them")
        return EvdevAccelerometerProfile(
            axes: EvdevAxes(codes: codes, unitsPerG: units, center: center), frame: frame, known: known)
    }

    /// The magnitude of the device's current reading on `codes`, in raw units, when it is not about zero.
    static func measuredMagnitude(
        _ device: EvdevCapabilities, codes: [UInt16], center: (x: Double, y: Double, z: Double)
    ) -> Double? {
        let centers = [center.x, center.y, center.z]
        var sum = 0.0
        for (code, center) in zip(codes, centers) {
            guard let value = device.axes[code]?.value else { return nil }
            let offset = Double(value) - center
            sum += offset * offset
        }
        let magnitude = sum.squareRoot()
        return magnitude.isFinite && magnitude >= 1 ? magnitude : nil
    }

    /// What a host adds to describe `device`: an entry for the configuration file and the same as a udev rule,
    /// each setting `setting` (configuration key and value; N stands for its reading along gravity at rest).
    static func suggestion(
        for device: EvdevCapabilities, setting: [(key: String, value: String)], measured: Double?
    ) -> String {
        let quotedName = "\"" + device.name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        var lines = ["to read it, add to \(DefaultPaths.systemConfigurationFile):", "  accelerometers:"]
        lines.append("    - name: \(quotedName)")
        for (key, value) in setting { lines.append("      \(key): \(value)") }
        let udevKeys = ["units-per-g": unitsProperty, "axes": axesProperty, "center": centerProperty]
        let rule =
            "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\(quotedName)"
            + setting.compactMap { key, value in udevKeys[key].map { ", ENV{\($0)}=\"\(value)\"" } }.joined()
        lines.append("or a udev rule: \(rule)")
        if setting.contains(where: { $0.value == "N" }) {
            var note = "N is its reading along gravity at rest"
            // `measured` depends on a centre from a udev property or the configuration: never trap on its size.
            if let measured, let reading = Int(exactly: measured.rounded()) {
                note += "; it reads \(reading) now (that is N if it lies still)"
            }
            lines.append(note)
        }
        return lines.joined(separator: "\n")
    }

    public static func == (lhs: EvdevAccelerometerProfile, rhs: EvdevAccelerometerProfile) -> Bool {
        lhs.axes == rhs.axes && lhs.frame == rhs.frame && lhs.known == rhs.known
    }
}

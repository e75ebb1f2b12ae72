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

        /// Creates an axis.
        public init(minimum: Int32, maximum: Int32, resolution: Int32) {
            self.minimum = minimum
            self.maximum = maximum
            self.resolution = resolution
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

    /// Decides how to read `device`, or throws with what would make it readable.
    public static func resolve(
        _ device: EvdevCapabilities, udevProperties: [String: String] = [:], node: String = "the device"
    ) throws(EvdevSetupError) -> EvdevAccelerometerProfile {
        let known = KnownAccelerometers.evdevEntry(name: device.name, inputID: device.inputID)
        func refuse(_ problem: String) -> EvdevSetupError { EvdevSetupError(device: node, problem: problem) }
        let rule = "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(device.name)\""

        var codes: (x: UInt16, y: UInt16, z: UInt16) = known?.axes?.codes ?? (0, 1, 2)
        if let text = udevProperties[axesProperty] {
            let parsed = text.split(whereSeparator: { $0 == " " || $0 == "," }).map {
                EvdevAxes.code(named: String($0))
            }
            guard parsed.count == 3, let x = parsed[0], let y = parsed[1], let z = parsed[2] else {
                throw refuse("\(axesProperty)=\"\(text)\" must name three axes among ABS_X … ABS_RZ")
            }
            codes = (x, y, z)
        }
        let codeList = [codes.x, codes.y, codes.z]
        let missing = codeList.filter { device.axes[$0] == nil }
        guard missing.isEmpty else {
            let have = device.axes.keys.sorted().map(EvdevAxes.name(of:)).joined(separator: " ")
            throw refuse(
                "no \(missing.map(EvdevAxes.name(of:)).joined(separator: "/")) axes (it has: \(have.isEmpty ? "none" : have)); "
                    + "if its motion is on other axes, set \(axesProperty) in a udev rule: "
                    + "\(rule), ENV{\(axesProperty)}=\"ABS_RX ABS_RY ABS_RZ\"")
        }

        let overrideUnits = try udevProperties[unitsProperty].map { text throws(EvdevSetupError) in
            guard let values = triple(text), values.x > 0, values.y > 0, values.z > 0 else {
                throw refuse("\(unitsProperty)=\"\(text)\" must be one positive number or three")
            }
            return values
        }
        let overrideCenter = try udevProperties[centerProperty].map { text throws(EvdevSetupError) in
            guard let values = triple(text) else {
                throw refuse("\(centerProperty)=\"\(text)\" must be one number or three")
            }
            return values
        }
        guard device.isAccelerometer || known != nil || overrideUnits != nil else {
            throw refuse(
                "not marked as an accelerometer (no INPUT_PROP_ACCELEROMETER) and not a known device; if it is one, "
                    + "describe it in a udev rule: \(rule), ENV{\(unitsProperty)}=\"N\" (N: its reading along "
                    + "gravity at rest)")
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
                let hwdbKey = "EVDEV_ABS_0\(codes.x)"
                throw refuse(
                    unresolved.joined(separator: "/") + " report no resolution, so the units per g are unknown; "
                        + "add a udev rule: \(rule), ENV{\(unitsProperty)}=\"N\" (N: its reading along gravity at "
                        + "rest), or \(hwdbKey)=::N in hwdb")
            }
            units = (Double(resolutions[0]), Double(resolutions[1]), Double(resolutions[2]))
        }
        let center = overrideCenter ?? known?.axes?.center ?? (0, 0, 0)
        let frame =
            udevProperties[frameProperty] ?? known?.frame
            ?? (udevProperties["ACCEL_MOUNT_MATRIX"] != nil
                ? KnownAccelerometers.deviceFrame : "the device's own axes as its driver reports them")
        return EvdevAccelerometerProfile(
            axes: EvdevAxes(codes: codes, unitsPerG: units, center: center), frame: frame, known: known)
    }

    /// One number for all three axes, or three.
    private static func triple(_ text: String) -> (x: Double, y: Double, z: Double)? {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
        guard numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        let values = numbers.compactMap { $0 }
        switch values.count {
        case 1: return (values[0], values[0], values[0])
        case 3: return (values[0], values[1], values[2])
        default: return nil
        }
    }

    public static func == (lhs: EvdevAccelerometerProfile, rhs: EvdevAccelerometerProfile) -> Bool {
        lhs.axes == rhs.axes && lhs.frame == rhs.frame && lhs.known == rhs.known
    }
}

import ShakyCore

/// One way of finding and reading accelerometers: IIO buffered, IIO polled, evdev, trace replay.
///
/// Drivers sit in an ordered table (``AccelerometerDriverTable``); the first device that some driver
/// accepts, in table order, is used — the way iio-sensor-proxy picks its drivers.
public protocol AccelerometerDriver: Sendable {
    /// The driver's short name, as in ``SourceInfo/driver`` (`iio-buffer`).
    var name: String { get }

    /// Every device this driver sees for `spec`, each either usable or rejected with a reason.
    ///
    /// Returns an empty list when the spec is not for this driver (a trace spec for an IIO driver).
    func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice]
}

/// Settings every live driver honours.
public struct AccelerometerOptions: Sendable {
    /// The wanted sampling rate, Hz; IIO picks the nearest the device offers, polling uses it as is.
    public var rate: Double
    /// The clock a trace replay waits on.
    public var clock: any Clock<Duration>
    /// The host's descriptions of input accelerometers shakyd does not know (the configuration file's
    /// `accelerometers:`).
    public var descriptions: [AccelerometerDescription]
    /// Whether discovery waits a few sample periods for a buffered IIO device's first scan, to tell one that never
    /// delivers (`shakyd list-devices`); the daemon finds that out while reading instead.
    public var probesBuffers: Bool

    /// Creates options; 100 Hz on the continuous clock by default.
    public init(
        rate: Double = 100, clock: any Clock<Duration> = ContinuousClock(),
        descriptions: [AccelerometerDescription] = [], probesBuffers: Bool = false
    ) {
        self.rate = rate
        self.clock = clock
        self.descriptions = descriptions
        self.probesBuffers = probesBuffers
    }
}

/// A device a driver found: usable (with a way to open it) or rejected (with the reason).
public struct DiscoveredDevice: Sendable, CustomStringConvertible {
    /// The driver that looked at it.
    public var driver: String
    /// The device node or file.
    public var devicePath: String
    /// The device's name.
    public var deviceName: String
    /// Why the driver cannot use it; `nil` when it can.
    public var rejection: String?
    /// What a source for it would say about itself (rate, frame, notes), when usable and known before opening.
    public var info: SourceInfo?
    /// For a rejected device, what a host could add to make it usable (lines of text), if anything.
    public var suggestion: String?
    private let open: (@Sendable () throws -> any AccelerometerSource)?

    /// A usable device.
    public init(
        driver: String, devicePath: String, deviceName: String, info: SourceInfo? = nil,
        open: @escaping @Sendable () throws -> any AccelerometerSource
    ) {
        self.driver = driver
        self.devicePath = devicePath
        self.deviceName = deviceName
        self.rejection = nil
        self.info = info
        self.open = open
    }

    /// A rejected device, with what would make it usable when something would.
    public init(
        driver: String, devicePath: String, deviceName: String, rejection: String, suggestion: String? = nil
    ) {
        self.driver = driver
        self.devicePath = devicePath
        self.deviceName = deviceName
        self.rejection = rejection
        self.suggestion = suggestion
        self.open = nil
    }

    /// Whether the driver can read this device.
    public var isUsable: Bool { rejection == nil }

    /// Creates the source for a usable device.
    public func makeSource() throws -> any AccelerometerSource {
        guard let open else {
            throw AccelerometerDriverError.noDevice(spec: "\(driver) \(devicePath)", candidates: [description])
        }
        return try open()
    }

    public var description: String {
        "\(driver) \(devicePath) (\(deviceName)): " + (rejection.map { "rejected: \($0)" } ?? "usable")
    }
}

/// The ordered table of drivers.
public struct AccelerometerDriverTable: Sendable {
    /// The drivers, first preferred.
    public var drivers: [any AccelerometerDriver]

    /// Creates a table.
    public init(drivers: [any AccelerometerDriver]) {
        self.drivers = drivers
    }

    /// IIO buffered, IIO polled, evdev, then trace replay (which only answers `trace:` specs).
    public static let standard = AccelerometerDriverTable(drivers: [
        IIOBufferedDriver(), IIOPolledDriver(), EvdevDriver(), TraceReplayDriver(),
    ])

    /// Every device every driver sees, in table order, usable or not (for `shakyd list-devices`).
    public func discoverAll(
        _ spec: InputSpec, options: AccelerometerOptions = AccelerometerOptions()
    )
        -> [DiscoveredDevice]
    {
        drivers.flatMap { $0.discover(spec, options: options) }
    }

    /// The device that would be used: the first usable one in table order.
    public func choose(
        _ spec: InputSpec, options: AccelerometerOptions = AccelerometerOptions()
    ) throws(AccelerometerDriverError) -> DiscoveredDevice {
        var seen: [DiscoveredDevice] = []
        for driver in drivers {
            for device in driver.discover(spec, options: options) {
                if device.isUsable { return device }
                seen.append(device)
            }
        }
        throw .noDevice(spec: spec.description, candidates: seen.map(\.description))
    }

    /// Opens the first usable device for `spec`.
    public func open(
        _ spec: InputSpec, options: AccelerometerOptions = AccelerometerOptions()
    ) throws
        -> any AccelerometerSource
    {
        try choose(spec, options: options).makeSource()
    }
}

/// No driver found a device to read.
public enum AccelerometerDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing usable for `spec`; `candidates` says what was seen and why each was rejected.
    case noDevice(spec: String, candidates: [String])

    public var description: String {
        switch self {
        case .noDevice(let spec, _): description(naming: "--input \(spec)")
        }
    }

    /// The description with the input named as `input` says (`--input auto`, or the configuration file's line that
    /// set it), so that it names no flag the host never gave.
    public func description(naming input: String) -> String {
        switch self {
        case .noDevice(_, let candidates):
            var text = "no accelerometer found for \(input)"
            if candidates.isEmpty {
                text += " (no IIO or evdev accelerometer is present; `--input trace:FILE` replays a recording)"
            } else {
                text += "; candidates:\n" + candidates.map { "  \($0)" }.joined(separator: "\n")
            }
            return text
        }
    }
}

extension AccelerometerDriverTable {
    /// A report of `devices` for a person: one line per candidate, then which one `spec` would use. `place` is the
    /// configuration file's `path:line` that set `spec`, when the file did and not `--input`.
    public static func listing(
        of devices: [DiscoveredDevice], for spec: InputSpec, setIn place: String? = nil
    ) -> String {
        var lines = [
            place.map { "Accelerometers for input \(spec) (set in \($0)):" } ?? "Accelerometers for --input \(spec):"
        ]
        if devices.isEmpty { lines.append("  none found (no IIO accelerometer, no evdev accelerometer)") }
        for device in devices {
            let verdict = device.rejection.map { "rejected: \($0)" } ?? "usable"
            lines.append("  \(device.driver)\t\(device.devicePath)\t\(device.deviceName)\t\(verdict)")
            if let info = device.info {
                if let rate = info.rate { lines.append("    rate: \(IIOSamplingFrequency.text(rate)) Hz") }
                if let frame = info.frame { lines.append("    frame: \(frame)") }
                if let matrix = info.mountMatrix { lines.append("    mount matrix: \(matrix)") }
                if let note = info.note { lines.append("    note: \(note)") }
            }
            if let suggestion = device.suggestion {
                lines += suggestion.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
            }
        }
        if let chosen = devices.first(where: \.isUsable) {
            lines.append("Would use: \(chosen.driver) \(chosen.devicePath) (\(chosen.deviceName))")
        } else {
            lines.append("Would use: nothing; `--input trace:FILE` replays a recorded trace instead")
        }
        return lines.joined(separator: "\n")
    }
}

import ShakyCore

/// Finds evdev accelerometers and decides how to read each one.
///
/// Candidates are the event devices udev tags `ID_INPUT_ACCELEROMETER=1`, those described by the udev property
/// `SHAKY_ACCEL_UNITS_PER_G`, those the configuration file describes (``AccelerometerDescription``), those in the
/// known-device table (the Wii Remote, which udev tags a joystick), and
/// any whose name says it is an accelerometer or motion sensor — or the one path asked for. Each is read as
/// ``EvdevAccelerometerProfile`` decides, or rejected with what would make it readable.
public struct EvdevDriver: AccelerometerDriver {
    public let name = "evdev"

    /// Creates the driver.
    public init() {}

    public func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice] {
        let udev = try? UdevContext()
        var candidates: [(path: String, udev: UdevDevice?)]
        switch spec {
        case .auto, .evdev(path: nil):
            let devices = (try? udev?.enumerate(subsystem: "input")) ?? []
            candidates = devices.filter { Self.isCandidate($0, descriptions: options.descriptions) }.compactMap {
                device in
                device.devicePath.map { ($0, device) }
            }
        case .evdev(path: let path?):
            candidates = [(path, udev?.device(devicePath: path, subsystem: "input"))]
        case .iio, .trace:
            return []
        }
        candidates.sort { $0.path < $1.path }
        return candidates.map { path, udevDevice in
            let fallbackName = udevDevice?.name ?? "-"
            do {
                let device = try EvdevDevice(path: path)
                let capabilities = device.capabilities()
                let description = options.descriptions.first {
                    $0.matches(name: capabilities.name, inputID: capabilities.inputID, driver: udevDevice?.driver)
                }
                let profile = try EvdevAccelerometerProfile.resolve(
                    capabilities, udevProperties: udevDevice?.properties ?? [:], description: description, node: path)
                let matrix =
                    try udevDevice?.accelMountMatrix.map { text throws(MountMatrixError) in
                        try MountMatrix(parsing: text)
                    } ?? .identity
                let info = SourceInfo(
                    driver: name, devicePath: path, deviceName: device.name, rate: nil,
                    sysfsPath: udevDevice?.sysfsPath, mountMatrix: matrix.isIdentity ? nil : matrix.description,
                    frame: profile.frame)
                return DiscoveredDevice(driver: name, devicePath: path, deviceName: device.name, info: info) {
                    EvdevAccelerometer(info: info, axes: profile.axes, mountMatrix: matrix)
                }
            } catch let error as EvdevSetupError {
                return DiscoveredDevice(
                    driver: name, devicePath: path, deviceName: fallbackName, rejection: "\(error)",
                    suggestion: error.suggestion)
            } catch {
                return DiscoveredDevice(
                    driver: name, devicePath: path, deviceName: fallbackName, rejection: "\(error)")
            }
        }
    }

    /// Whether an input device found by enumeration is worth a look: an event node udev or a rule marks as an
    /// accelerometer, one the configuration file describes, a known device, or one whose name says so.
    static func isCandidate(_ device: UdevDevice, descriptions: [AccelerometerDescription] = []) -> Bool {
        guard device.devicePath != nil, device.sysname.hasPrefix("event") else { return false }
        if device.properties["ID_INPUT_ACCELEROMETER"] == "1" { return true }
        if device.properties[EvdevAccelerometerProfile.unitsProperty] != nil { return true }
        guard let name = device.name else { return false }
        if descriptions.contains(where: { $0.matches(name: name, inputID: device.inputID, driver: device.driver) }) {
            return true
        }
        if KnownAccelerometers.evdev.contains(where: { KnownAccelerometer.name(name, matches: $0.namePattern) }) {
            return true
        }
        let lowered = name.lowercased()
        return lowered.contains("accelerometer") || lowered.hasSuffix("motion sensors") || lowered.hasSuffix("(imu)")
    }
}

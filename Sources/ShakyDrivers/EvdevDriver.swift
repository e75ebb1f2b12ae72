import ShakyCore

/// Finds evdev accelerometers: event devices udev tags `ID_INPUT_ACCELEROMETER=1` (or the one path asked for)
/// that have `INPUT_PROP_ACCELEROMETER` and ABS_X/Y/Z with a resolution.
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
            candidates = devices.filter { $0.properties["ID_INPUT_ACCELEROMETER"] == "1" }
                .compactMap { device in device.devicePath.map { ($0, device) } }
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
                _ = try device.accelerometerAxes()
                let matrix =
                    try udevDevice?.accelMountMatrix.map { text throws(MountMatrixError) in
                        try MountMatrix(parsing: text)
                    } ?? .identity
                let info = SourceInfo(
                    driver: name, devicePath: path, deviceName: device.name, rate: nil,
                    sysfsPath: udevDevice?.sysfsPath, mountMatrix: matrix.isIdentity ? nil : matrix.description)
                return DiscoveredDevice(driver: name, devicePath: path, deviceName: device.name) {
                    EvdevAccelerometer(info: info, mountMatrix: matrix)
                }
            } catch {
                return DiscoveredDevice(
                    driver: name, devicePath: path, deviceName: fallbackName, rejection: "\(error)")
            }
        }
    }
}

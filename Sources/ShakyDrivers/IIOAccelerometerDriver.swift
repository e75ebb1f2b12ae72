import CIIO
import Glibc
import ShakyCore

/// Finds IIO accelerometers that can be read through their buffer (preferred: kernel timestamps, no polling).
public struct IIOBufferedDriver: AccelerometerDriver {
    public let name = "iio-buffer"

    /// Creates the driver.
    public init() {}

    public func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice] {
        IIODiscovery.discover(spec, driver: name) { device, channels, udev, info in
            guard channels.allSatisfy({ device.iio.iio_channel_is_scan_element($0) }) else {
                return .failure("no buffer support (accel channels are not scan elements)")
            }
            do {
                // Try the whole setup once, so a busy buffer or a missing trigger falls back to polling.
                let trial = try IIOBufferedReading(deviceID: device.id, rate: options.rate, udev: udev)
                if options.probesBuffers {
                    // As long as the reading loop's watchdog would wait before it polls instead.
                    let timeout = SampleWatchdog(period: 1 / (trial.rate ?? options.rate), startedAt: 0).timeout
                    guard trial.delivers(within: timeout) else {
                        let silent = BufferNeverDeliveredError(device: device.devicePath, timeout: timeout)
                        return .failure("\(silent); shakyd reads it by polling instead")
                    }
                }
                var described = info
                described.rate = trial.rate ?? options.rate
                described.note = IIODiscovery.rateNote(achieved: trial.rate, wanted: options.rate)
                let (id, rate, finalInfo) = (device.id, options.rate, described)
                return .success(
                    DiscoveredDevice(
                        driver: name, devicePath: device.devicePath, deviceName: device.name, info: finalInfo
                    ) {
                        IIOAccelerometer(mode: .buffered, info: finalInfo, deviceID: id, rate: rate, udev: udev)
                    })
            } catch let error as DeviceError where error.code == EBUSY {
                return .failure(
                    "buffer unusable: \(error) (when shakyd serve is reading it, `shaky sensor` shows how)")
            } catch {
                return .failure("buffer unusable: \(error)")
            }
        }
    }
}

/// Finds IIO accelerometers that can be polled through their `in_accel_*_raw` attributes (the fallback).
public struct IIOPolledDriver: AccelerometerDriver {
    public let name = "iio-poll"

    /// Creates the driver.
    public init() {}

    public func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice] {
        IIODiscovery.discover(spec, driver: name) { device, channels, udev, info in
            guard channels.allSatisfy({ device.iio.iio_channel_find_attr($0, "raw") != nil }) else {
                return .failure("no in_accel_{x,y,z}_raw attributes")
            }
            var described = info
            described.rate = options.rate
            let (id, rate, finalInfo) = (device.id, options.rate, described)
            return .success(
                DiscoveredDevice(
                    driver: name, devicePath: device.devicePath, deviceName: device.name, info: finalInfo
                ) {
                    IIOAccelerometer(mode: .polled, info: finalInfo, deviceID: id, rate: rate, udev: udev)
                })
        }
    }
}

/// What the two IIO drivers share: listing devices, matching the spec, reading the mount matrix.
enum IIODiscovery {
    /// A per-device verdict.
    enum Verdict {
        case success(DiscoveredDevice)
        case failure(String)
    }

    /// Detection needs 50 Hz or more; below that, what a person should know.
    static func rateNote(achieved: Double?, wanted: Double) -> String? {
        guard let achieved, achieved < 50, achieved < wanted else { return nil }
        return "runs at \(IIOSamplingFrequency.text(achieved)) Hz, below the 50 Hz shake detection needs: "
            + "shakes will be missed more often"
    }

    /// Whether `directory` exists and lists anything.
    static func listsDevices(at directory: String) -> Bool {
        guard let listing = opendir(directory) else { return false }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return true }
        }
        return false
    }

    static func discover(
        _ spec: InputSpec, driver: String,
        check: (IIODevice, [OpaquePointer], UdevDevice?, SourceInfo) -> Verdict
    ) -> [DiscoveredDevice] {
        let wanted: String?
        switch spec {
        case .auto: wanted = nil
        case .iio(let name): wanted = name
        case .evdev, .trace: return []
        }
        // Looking for any device on a machine that lists none needs no libiio (and does not load it).
        if wanted == nil, !listsDevices(at: "/sys/bus/iio/devices") { return [] }
        let rejected = { (reason: String) in
            [DiscoveredDevice(driver: driver, devicePath: "/sys/bus/iio/devices", deviceName: "-", rejection: reason)]
        }
        let library: LibIIO
        switch LibIIO.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): return rejected("\(error)")
        }
        let context: IIOContext
        do {
            context = try IIOContext(library: library)
        } catch  where error.code == ENOENT {
            return []  // no IIO subsystem at all
        } catch {
            return rejected("\(error)")
        }
        let udevDevices = (try? UdevContext().enumerate(subsystem: "iio")) ?? []
        var found: [DiscoveredDevice] = []
        for device in context.devices() where wanted.map(device.matches) ?? true {
            guard let channels = device.accelerationChannels() else {
                if wanted != nil {
                    found.append(
                        DiscoveredDevice(
                            driver: driver, devicePath: device.devicePath, deviceName: device.name,
                            rejection: "not an accelerometer (no accel_x/y/z channels)"))
                }
                continue
            }
            let udev = udevDevices.first { $0.sysname == device.id }
            let matrix: MountMatrix
            do {
                matrix = try device.mountMatrix(udev: udev, channel: channels[0])
            } catch {
                found.append(
                    DiscoveredDevice(
                        driver: driver, devicePath: device.devicePath, deviceName: device.name, rejection: "\(error)"))
                continue
            }
            let info = SourceInfo(
                driver: driver, devicePath: device.devicePath, deviceName: device.name,
                sysfsPath: udev?.sysfsPath ?? "/sys/bus/iio/devices/\(device.id)",
                mountMatrix: matrix.isIdentity ? nil : matrix.description,
                frame: KnownAccelerometers.iioFrame(name: device.name, hasMountMatrix: !matrix.isIdentity))
            switch check(device, channels, udev, info) {
            case .success(let discovered): found.append(discovered)
            case .failure(let reason):
                found.append(
                    DiscoveredDevice(
                        driver: driver, devicePath: device.devicePath, deviceName: device.name, rejection: reason))
            }
        }
        return found
    }
}

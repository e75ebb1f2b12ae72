import CIIO
import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An IIO device set up for polled reading: its three `in_accel_*_raw` attributes are opened once and read with
/// `pread` at every sample, their text parsed in place.
final class IIOPolledReading: AccelerometerReading {
    private let devicePath: String
    /// The device's sysfs directory: while it is there, a failed read is retried.
    private let sysfsPath: String
    private let attributes: [RawAttributeFile]
    private let calibration: [(scale: Double, offset: Double)]
    private let mountMatrix: MountMatrix
    private let period: Double
    private var retry = ReadRetryPolicy()

    init(deviceID: String, rate: Double, udev: UdevDevice?) throws {
        let context = try IIOContext()
        guard let device = context.devices().first(where: { $0.id == deviceID }) else {
            throw AccelerometerGoneError(device: "/dev/\(deviceID)", reason: "no longer listed in /sys/bus/iio")
        }
        let iio = device.iio
        guard let channels = device.accelerationChannels(),
            channels.allSatisfy({ iio.iio_channel_find_attr($0, "raw") != nil })
        else {
            throw IIOSetupError(device: device.devicePath, problem: "no in_accel_{x,y,z}_raw attributes")
        }
        devicePath = device.devicePath
        let sysfsPath = "/sys/bus/iio/devices/\(deviceID)"
        self.sysfsPath = sysfsPath
        calibration = try device.calibration(of: channels)
        mountMatrix = try device.mountMatrix(udev: udev, channel: channels[0])
        device.configureSamplingFrequency(rate, channel: channels[0])
        period = 1 / max(rate, 0.001)
        attributes = try channels.map { channel in
            let name = iio.iio_channel_attr_get_filename(channel, "raw").map { String(cString: $0) } ?? "raw"
            return try RawAttributeFile(path: "\(sysfsPath)/\(name)", device: device.devicePath)
        }
    }

    /// Reads one sample per period until stopped.
    func run(_ session: ReaderSession) throws {
        var deadline = monotonicSeconds()
        reading: while true {
            let time = monotonicSeconds()
            var values: (Double, Double, Double) = (0, 0, 0)
            for index in 0..<3 {
                let raw: Int64
                do {
                    raw = try attributes[index].read()
                } catch {
                    // A failed or garbled read (an I²C glitch) is retried while the device is in sysfs.
                    if session.isStopRequested { return }
                    switch retry.failed(devicePresent: access(sysfsPath, F_OK) == 0) {
                    case .gone: throw (error as? DeviceError)?.classified ?? error
                    case .retry(let delay, _):
                        guard try session.sleep(untilMonotonic: monotonicSeconds() + delay) else { return }
                        deadline = monotonicSeconds()
                        continue reading
                    }
                }
                retry.succeeded()
                let value = (Double(raw) + calibration[index].offset) * calibration[index].scale
                switch index {
                case 0: values.0 = value
                case 1: values.1 = value
                default: values.2 = value
                }
            }
            let (x, y, z) = mountMatrix.apply(x: values.0, y: values.1, z: values.2)
            session.yield(AccelSample(timestamp: time, x: x, y: y, z: z))
            deadline += period
            let now = monotonicSeconds()
            if deadline < now { deadline = now }
            guard try session.sleep(untilMonotonic: deadline) else { return }
        }
    }
}

/// The one owner of an open sysfs attribute holding an integer (`in_accel_x_raw`), read again with `pread`.
final class RawAttributeFile {
    let path: String
    private let device: String
    private let descriptor: Int32
    private var last: Int64 = 0

    init(path: String, device: String) throws(DeviceError) {
        self.path = path
        self.device = device
        descriptor = try checkSyscall("open \(path)", device: device) { open(path, O_RDONLY | O_CLOEXEC) }
    }

    deinit {
        close(descriptor)
    }

    /// The attribute's current value: a decimal integer, optionally signed, ending in a newline.
    ///
    /// An empty read (a file caught between being truncated and rewritten, as an emulation does) repeats the
    /// previous value; the kernel's attributes are never empty.
    func read() throws -> Int64 {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let value = try withUnsafeMutableBytes(of: &bytes) { buffer throws -> Int64? in
            let count = try checkSyscall("read \(path)", device: device) {
                pread(descriptor, buffer.baseAddress, buffer.count, 0)
            }
            if count == 0 { return nil }
            guard let value = Self.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else {
                throw IIOSetupError(device: device, problem: "\(path) does not hold an integer")
            }
            return value
        }
        if let value { last = value }
        return last
    }

    /// A decimal integer with an optional sign and trailing whitespace; `nil` for anything else or an overflow.
    static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        var negative = false
        if index < text.count && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = added
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < text.count {
            guard text[index] == UInt8(ascii: "\n") || text[index] == UInt8(ascii: " ") || text[index] == 0 else {
                return nil
            }
            index += 1
        }
        return negative ? -value : value
    }
}

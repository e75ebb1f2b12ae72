import CIIO
import Foundation
import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one owner of an enabled IIO buffer (`struct iio_buffer *`); freeing it disables the buffer.
final class IIOBuffer {
    let pointer: OpaquePointer
    /// Keeps the context (and so the device and channel pointers) alive.
    let device: IIODevice

    init(device: IIODevice, scansPerRefill: Int) throws(DeviceError) {
        var buffer: OpaquePointer?
        try checkSyscall("enable the buffer", device: device.devicePath) {
            buffer = iio_device_create_buffer(device.pointer, scansPerRefill, false)
            return buffer == nil ? -1 : 0
        }
        self.pointer = buffer!
        self.device = device
    }

    deinit {
        iio_buffer_destroy(pointer)
    }
}

/// An IIO device set up for buffered reading: channels, trigger, rate, calibration and the buffer.
final class IIOBufferedReading: AccelerometerReading {
    let buffer: IIOBuffer
    let devicePath: String
    /// Per axis: the channel's layout, its byte offset within a scan, scale and offset.
    private let axes: [(format: IIOScanFormat, byteOffset: Int, scale: Double, offset: Double)]
    private let timestamp: (format: IIOScanFormat, byteOffset: Int)?
    private let pollDescriptor: Int32
    private let mountMatrix: MountMatrix
    /// The rate the device reports after setup.
    let rate: Double?
    /// Turns the kernel's timestamps into CLOCK_MONOTONIC.
    private let timestampClock: IIOTimestampClock
    /// The most scans one `iio_buffer_refill` reads.
    static let scansPerRefill = 64

    /// The scans the kernel gathers before it wakes the reader: a motion period's worth at `rate`, from 1 to a
    /// refill. The rate is the device's own word (a sysfs attribute), so any value gives a valid count.
    static func watermark(forRate rate: Double) -> Int {
        let scans = rate * ReadPacing.motionPeriod
        guard scans.isFinite, scans >= 1 else { return 1 }
        return Int(min(scans, Double(scansPerRefill)).rounded(.down))
    }

    /// Sets up `deviceID` and enables its buffer. Throws when any step fails (the polled driver is the fallback).
    init(deviceID: String, rate wantedRate: Double, udev: UdevDevice?) throws {
        let context = try IIOContext()
        guard let device = context.devices().first(where: { $0.id == deviceID }) else {
            throw AccelerometerGoneError(device: "/dev/\(deviceID)", reason: "no longer listed in /sys/bus/iio")
        }
        guard let channels = device.accelerationChannels() else {
            throw IIOSetupError(device: device.devicePath, problem: "no accel_x/y/z channels")
        }
        guard channels.allSatisfy({ iio_channel_is_scan_element($0) }) else {
            throw IIOSetupError(
                device: device.devicePath, problem: "no buffer support (accel channels are not scan elements)")
        }
        devicePath = device.devicePath
        let calibration = try device.calibration(of: channels)
        mountMatrix = try device.mountMatrix(udev: udev, channel: channels[0])
        let timestampChannel = device.timestampChannel()
        for channel in channels { iio_channel_enable(channel) }
        if let timestampChannel { iio_channel_enable(timestampChannel) }
        try device.ensureTrigger()
        rate = device.configureSamplingFrequency(wantedRate, channel: channels[0])
        if device.attribute("current_timestamp_clock") != nil {
            try? device.writeAttribute("current_timestamp_clock", "monotonic")
        }
        timestampClock = IIOTimestampClock(clockName: device.attribute("current_timestamp_clock"))
        // The kernel wakes a reader once `watermark` scans are in its buffer: a motion period's worth, so a paced
        // reader finds its batch ready. Drivers and kernels without the attribute (or refusing it) wake per scan.
        let watermark = Self.watermark(forRate: rate ?? wantedRate)
        _ = iio_device_buffer_attr_write(device.pointer, "watermark", "\(watermark)")
        let buffer = try IIOBuffer(device: device, scansPerRefill: Self.scansPerRefill)
        self.buffer = buffer
        try checkNegativeErrno(
            iio_buffer_set_blocking_mode(buffer.pointer, false), "set non-blocking reads", device: device.devicePath)
        pollDescriptor = try checkNegativeErrno(
            iio_buffer_get_poll_fd(buffer.pointer), "get the buffer's descriptor", device: device.devicePath)
        let start = iio_buffer_start(buffer.pointer)!
        func layout(_ channel: OpaquePointer) throws -> (IIOScanFormat, Int) {
            let format = iio_channel_get_data_format(channel)!.pointee
            guard
                let scanFormat = IIOScanFormat(
                    isBigEndian: format.is_be, isSigned: format.is_signed, bits: Int(format.bits),
                    storageBits: Int(format.length), shift: Int(format.shift))
            else {
                throw IIOSetupError(
                    device: device.devicePath, problem: "unsupported scan type of \(format.length) bits")
            }
            return (scanFormat, start.distance(to: iio_buffer_first(buffer.pointer, channel)!))
        }
        axes = try zip(channels, calibration).map { channel, calibration in
            let (format, byteOffset) = try layout(channel)
            return (format, byteOffset, calibration.scale, calibration.offset)
        }
        timestamp = try timestampChannel.map { try layout($0) }
    }

    /// Waits up to `timeout` seconds for the enabled buffer's first scan; whether one came (`shakyd list-devices`
    /// tells a buffer that never delivers, as on a board whose interrupt line is not wired, from one that does).
    func delivers(within timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        var descriptor = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            let ready = poll(&descriptor, 1, Int32(min((left * 1000).rounded(.up), 60_000)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            let count = iio_buffer_refill(buffer.pointer)
            if count == -Int(EAGAIN) { continue }
            return count >= iio_buffer_step(buffer.pointer)
        }
    }

    /// Reads scans until stopped, a batch per wake-up; each scan becomes one sample.
    func run(_ session: ReaderSession) throws {
        let step = iio_buffer_step(buffer.pointer)
        let capacity = step * Self.scansPerRefill
        // A buffer that stays empty (an unwired interrupt) ends the run with BufferNeverDeliveredError.
        var watchdog = SampleWatchdog(period: 1 / (rate ?? 100), startedAt: monotonicSeconds())
        while true {
            let wait = watchdog.remaining(at: monotonicSeconds())
            switch try session.waitForBatch(readable: pollDescriptor, device: devicePath, timeoutMilliseconds: wait) {
            case .stopped: return
            case .timedOut:
                if watchdog.isStarved(at: monotonicSeconds()) {
                    throw BufferNeverDeliveredError(device: devicePath, timeout: watchdog.timeout)
                }
                continue
            case .readable: break
            }
            // A full refill may have left more behind; a partial one read all there was.
            var count = capacity
            while count == capacity {
                count = iio_buffer_refill(buffer.pointer)
                if count == -Int(EAGAIN) { break }
                do {
                    try checkNegativeErrno(count, "read a scan", device: devicePath)
                } catch {
                    if session.isStopRequested { return }
                    throw error.classified
                }
                let start = UnsafeRawPointer(iio_buffer_start(buffer.pointer)!)
                if count >= step { watchdog.sampleArrived() }
                var scan = 0
                while scan + step <= count {
                    session.yield(decodeScan(start + scan))
                    scan += step
                }
            }
        }
    }

    /// Turns one scan's bytes into a sample in m/s².
    private func decodeScan(_ bytes: UnsafeRawPointer) -> AccelSample {
        func axis(_ index: Int) -> Double {
            let axis = axes[index]
            let raw = axis.format.decode(
                UnsafeRawBufferPointer(start: bytes + axis.byteOffset, count: axis.format.storageBytes))
            return (Double(raw) + axis.offset) * axis.scale
        }
        let time: Double
        if let timestamp {
            let kernelSeconds =
                Double(
                    timestamp.format.decode(
                        UnsafeRawBufferPointer(
                            start: bytes + timestamp.byteOffset, count: timestamp.format.storageBytes)))
                / 1e9
            time = timestampClock.monotonic(kernelSeconds)
        } else {
            time = monotonicSeconds()
        }
        let (x, y, z) = mountMatrix.apply(x: axis(0), y: axis(1), z: axis(2))
        return AccelSample(timestamp: time, x: x, y: y, z: z)
    }
}

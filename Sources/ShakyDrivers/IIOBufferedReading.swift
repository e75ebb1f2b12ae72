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
            buffer = device.iio.iio_device_create_buffer(device.pointer, scansPerRefill, false)
            return buffer == nil ? -1 : 0
        }
        self.pointer = buffer!
        self.device = device
    }

    deinit {
        device.iio.iio_buffer_destroy(pointer)
    }
}

/// An IIO device set up for buffered reading: channels, trigger, rate, calibration and the buffer.
final class IIOBufferedReading: AccelerometerReading {
    let buffer: IIOBuffer
    let devicePath: String
    /// libiio's functions.
    private let iio: shaky_iio_functions
    /// Per axis: the channel's layout, its byte offset within a scan, scale and offset.
    private let axes: [(format: IIOScanFormat, byteOffset: Int, scale: Double, offset: Double)]
    private let timestamp: (format: IIOScanFormat, byteOffset: Int)?
    private let pollDescriptor: Int32
    private let mountMatrix: MountMatrix
    /// The rate the device reports after setup.
    let rate: Double?
    /// Turns the kernel's timestamps into CLOCK_MONOTONIC, measured again at every wake-up.
    private var timestampClock: IIOTimestampClock
    /// The most scans one `iio_buffer_refill` reads.
    static let scansPerRefill = 64

    /// Sets up `deviceID` and enables its buffer. Throws when any step fails (the polled driver is the fallback).
    init(deviceID: String, rate wantedRate: Double, udev: UdevDevice?) throws {
        let context = try IIOContext()
        guard let device = context.devices().first(where: { $0.id == deviceID }) else {
            throw AccelerometerGoneError(device: "/dev/\(deviceID)", reason: "no longer listed in /sys/bus/iio")
        }
        let iio = device.iio
        guard let channels = device.accelerationChannels() else {
            throw IIOSetupError(device: device.devicePath, problem: "no accel_x/y/z channels")
        }
        guard channels.allSatisfy({ iio.iio_channel_is_scan_element($0) }) else {
            throw IIOSetupError(
                device: device.devicePath, problem: "no buffer support (accel channels are not scan elements)")
        }
        devicePath = device.devicePath
        self.iio = iio
        let calibration = try device.calibration(of: channels)
        mountMatrix = try device.mountMatrix(udev: udev, channel: channels[0])
        let timestampChannel = device.timestampChannel()
        for channel in channels { iio.iio_channel_enable(channel) }
        if let timestampChannel { iio.iio_channel_enable(timestampChannel) }
        try device.ensureTrigger()
        rate = device.configureSamplingFrequency(wantedRate, channel: channels[0])
        if device.attribute("current_timestamp_clock") != nil {
            try? device.writeAttribute("current_timestamp_clock", "monotonic")
        }
        timestampClock = IIOTimestampClock(clockName: device.attribute("current_timestamp_clock"))
        let buffer = try IIOBuffer(device: device, scansPerRefill: Self.scansPerRefill)
        self.buffer = buffer
        try checkNegativeErrno(
            iio.iio_buffer_set_blocking_mode(buffer.pointer, false), "set non-blocking reads", device: device.devicePath
        )
        pollDescriptor = try checkNegativeErrno(
            iio.iio_buffer_get_poll_fd(buffer.pointer), "get the buffer's descriptor", device: device.devicePath)
        let start = iio.iio_buffer_start(buffer.pointer)!
        func layout(_ channel: OpaquePointer) throws -> (IIOScanFormat, Int) {
            let format = iio.iio_channel_get_data_format(channel)!.pointee
            guard
                let scanFormat = IIOScanFormat(
                    isBigEndian: format.is_be, isSigned: format.is_signed, bits: Int(format.bits),
                    storageBits: Int(format.length), shift: Int(format.shift))
            else {
                throw IIOSetupError(
                    device: device.devicePath, problem: "unsupported scan type of \(format.length) bits")
            }
            return (scanFormat, start.distance(to: iio.iio_buffer_first(buffer.pointer, channel)!))
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
            let count = iio.iio_buffer_refill(buffer.pointer)
            if count == -Int(EAGAIN) { continue }
            return count >= iio.iio_buffer_step(buffer.pointer)
        }
    }

    /// Reads scans until stopped, a batch per wake-up; each scan becomes one sample.
    ///
    /// libiio sets the buffer up; the scans are then read with `read(2)` on its descriptor, as libiio's own refill
    /// does on a mainline kernel (its "high-speed" block interface needs a vendor kernel), minus what that refill
    /// adds per wake-up: a second `read` that finds nothing, a clock reading and a copy. One `read` of up to
    /// ``scansPerRefill`` scans takes all the kernel holds when it returns less; a scan split across two reads is
    /// put together.
    func run(_ session: ReaderSession) throws {
        let step = iio.iio_buffer_step(buffer.pointer)
        guard step > 0 else { return }
        let capacity = step * Self.scansPerRefill
        // The kernel's buffer holds at least a refill's worth: never sleep longer than half of it takes to fill.
        if let rate, rate > 0 { session.limitPeriod(to: Double(Self.scansPerRefill) / 2 / rate) }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { storage.deallocate() }
        var carried = 0
        /// Reads until the kernel's buffer is empty; the whole scans read, or `nil` when a failed read came with a
        /// stop request.
        func readScans() throws -> Int? {
            var scans = 0
            timestampClock.measure()
            while true {
                let wanted = capacity - carried
                let count = read(pollDescriptor, storage + carried, wanted)
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN { return scans }
                    if session.isStopRequested { return nil }
                    throw DeviceError(device: devicePath, operation: "read a scan", code: code).classified
                }
                let bytes = carried + count
                var offset = 0
                while offset + step <= bytes {
                    session.yield(decodeScan(storage + offset))
                    offset += step
                    scans += 1
                }
                carried = bytes - offset
                if carried > 0 { storage.copyMemory(from: storage + offset, byteCount: carried) }
                if count < wanted || count == 0 { return scans }
            }
        }
        // A buffer that stays empty (an unwired interrupt) ends the run with BufferNeverDeliveredError.
        var watchdog = SampleWatchdog(period: 1 / (rate ?? 100), startedAt: monotonicSeconds())
        while true {
            switch try session.waitForBatch() {
            case .stopped: return
            case .timedOut, .readable: break
            }
            guard var scans = try readScans() else { return }
            while scans == 0 {
                if watchdog.isStarved(at: monotonicSeconds()) {
                    throw BufferNeverDeliveredError(device: devicePath, timeout: watchdog.timeout)
                }
                // Opening the buffer, libiio sets the kernel's watermark to the buffer's length, so `poll` says
                // "readable" only once the buffer is full (and without the udev rules the watermark stays at one scan).
                // Batches come from the pacing, not from the watermark: an empty read waits one period at most, then
                // reads what came, so a device that paused is read again within a period of resuming.
                let period = Int32(clamping: Int(exactly: (session.currentPeriod * 1000).rounded(.up)) ?? 1000)
                let watchdogWait = watchdog.remaining(at: monotonicSeconds())
                let wait = watchdogWait < 0 ? period : min(watchdogWait, period)
                switch try session.waitForData(readable: pollDescriptor, device: devicePath, timeoutMilliseconds: wait)
                {
                case .stopped: return
                case .timedOut, .readable: break
                }
                guard let next = try readScans() else { return }
                scans = next
            }
            watchdog.sampleArrived()
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
            time = timestampClock.sampleTime(kernelSeconds)
        } else {
            time = monotonicSeconds()
        }
        let (x, y, z) = mountMatrix.apply(x: axis(0), y: axis(1), z: axis(2))
        return AccelSample(timestamp: time, x: x, y: y, z: z)
    }
}

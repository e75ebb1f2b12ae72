import CEvdev
import Foundation
import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An evdev accelerometer read from its event stream.
///
/// The reader thread wakes a batch at a time (``ReaderSession/waitForBatch()``; sooner when the kernel's queue for it
/// would fill, ``EvdevQueuePacing``) and reads every queued event; each `SYN_REPORT` becomes one sample,
/// timestamped with the event time and converted with the device's ``EvdevAxes`` (its axes, units per g and
/// centre, from the kernel's resolution, the known-device table or udev properties) to m/s².
/// After `SYN_DROPPED` the device state is resynchronised (libevdev's sync mode) and reading goes on.
/// ``stop()`` closes the device node.
public final class EvdevAccelerometer: AccelerometerSource {
    public let info: SourceInfo
    private let mountMatrix: MountMatrix
    private let axes: EvdevAxes
    private let slot = ReaderSessionSlot()

    /// Creates a source for the event device `info.devicePath` read with `axes`; nothing is opened until
    /// ``start()``.
    init(info: SourceInfo, axes: EvdevAxes, mountMatrix: MountMatrix) {
        self.info = info
        self.axes = axes
        self.mountMatrix = mountMatrix
    }

    deinit {
        slot.stop()
    }

    public func start() throws -> AsyncThrowingStream<AccelSample, any Error> {
        try start(keeping: { { _ in .kept } })
    }

    public func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        try slot.start(name: "evdev-reader", keeping: makeFilter) {
            let device = try EvdevDevice(path: info.devicePath)
            device.useMonotonicClock()
            return EvdevReading(device: device, axes: axes, mountMatrix: mountMatrix)
        }
    }

    public func stop() {
        slot.stop()
    }
}

/// The one owner of an open event device: its descriptor and its libevdev handle.
final class EvdevDevice {
    let path: String
    let descriptor: Int32
    let handle: OpaquePointer

    /// Opens `path` read-only and non-blocking and reads its capabilities.
    init(path: String) throws(DeviceError) {
        self.path = path
        let descriptor = try checkSyscall("open", device: path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        var handle: OpaquePointer?
        do {
            try checkNegativeErrno(libevdev_new_from_fd(descriptor, &handle), "read capabilities", device: path)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.handle = handle!
    }

    deinit {
        libevdev_free(handle)
        close(descriptor)
    }

    /// The device's name.
    var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? path }

    /// What the device offers: name, IDs, the accelerometer property, its motion axes and MSC_TIMESTAMP.
    func capabilities() -> EvdevCapabilities {
        var axes: [UInt16: EvdevCapabilities.Axis] = [:]
        for code in UInt16(0)..<6 where libevdev_has_event_code(handle, UInt32(EV_ABS), UInt32(code)) == 1 {
            guard let absinfo = libevdev_get_abs_info(handle, UInt32(code)) else { continue }
            axes[code] = EvdevCapabilities.Axis(
                minimum: absinfo.pointee.minimum, maximum: absinfo.pointee.maximum,
                resolution: absinfo.pointee.resolution, value: absinfo.pointee.value)
        }
        func id(_ value: Int32) -> UInt16 { UInt16(truncatingIfNeeded: value) }
        return EvdevCapabilities(
            name: name,
            inputID: KnownAccelerometer.InputID(
                bus: id(libevdev_get_id_bustype(handle)), vendor: id(libevdev_get_id_vendor(handle)),
                product: id(libevdev_get_id_product(handle))),
            isAccelerometer: libevdev_has_property(handle, UInt32(INPUT_PROP_ACCELEROMETER)) == 1, axes: axes,
            sendsTimestamps: libevdev_has_event_code(handle, UInt32(EV_MSC), UInt32(MSC_TIMESTAMP)) == 1)
    }

    /// The absolute axes (multi-touch ones aside) and relative axes the device declares: what the kernel sizes
    /// a reader's buffer by (``EvdevQueuePacing``).
    var declaredAxes: Int {
        let absolute = (0..<UInt32(ABS_CNT)).filter { code in
            !(UInt32(ABS_MT_SLOT)...UInt32(ABS_MT_TOOL_Y)).contains(code)
                && libevdev_has_event_code(handle, UInt32(EV_ABS), code) == 1
        }
        let relative = (0..<UInt32(REL_CNT)).filter { libevdev_has_event_code(handle, UInt32(EV_REL), $0) == 1 }
        return absolute.count + relative.count
    }

    /// The current value of an ABS axis.
    func value(_ code: Int32) -> Int32 {
        libevdev_get_event_value(handle, UInt32(EV_ABS), UInt32(code))
    }

    /// Asks for CLOCK_MONOTONIC event times (the kernel default is the wall clock); ignored when refused.
    func useMonotonicClock() {
        _ = libevdev_set_clock_id(handle, CLOCK_MONOTONIC)
    }
}

/// An event device that cannot be used as an accelerometer, and why.
public struct EvdevSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node.
    public var device: String
    /// What is missing.
    public var problem: String
    /// What a host could add to make it readable (a configuration entry, a udev rule), for `list-devices`.
    public var suggestion: String?

    /// Creates the error.
    public init(device: String, problem: String, suggestion: String? = nil) {
        self.device = device
        self.problem = problem
        self.suggestion = suggestion
    }

    public var description: String { "\(device): \(problem)" }
}

/// Reads the event stream of one device and turns each report into a sample.
final class EvdevReading: AccelerometerReading {
    private let device: EvdevDevice
    private let axes: EvdevAxes
    private let mountMatrix: MountMatrix
    private var x: Int32
    private var y: Int32
    private var z: Int32
    private var clock = EvdevSampleClock()
    /// Events read since the last `SYN_REPORT`.
    private var eventsInReport = 0

    /// What one wake-up read: the device's events (not the ones a resynchronisation makes up), and whether the
    /// kernel had dropped some (`SYN_DROPPED`).
    private typealias Batch = (events: Int, dropped: Bool)

    init(device: EvdevDevice, axes: EvdevAxes, mountMatrix: MountMatrix) {
        self.device = device
        self.axes = axes
        self.mountMatrix = mountMatrix
        x = device.value(Int32(axes.codes.x))
        y = device.value(Int32(axes.codes.y))
        z = device.value(Int32(axes.codes.z))
    }

    /// Reads the device a batch per wake-up, paced like the buffered IIO path: the kernel queues the events
    /// between wake-ups, for as long as ``EvdevQueuePacing`` says its buffer safely holds them.
    func run(_ session: ReaderSession) throws {
        var queue = EvdevQueuePacing(axes: device.declaredAxes)
        session.limitPeriod(to: queue.longestPeriod)
        while true {
            switch try session.waitForBatch() {
            case .stopped: return
            case .timedOut, .readable: break
            }
            guard var batch = try readAvailable(session, &queue) else { return }
            while batch.events == 0 {
                // Nothing queued (a sensor at rest that sends only changes, or a pause): sleep until an event comes.
                switch try session.waitForData(readable: device.descriptor, device: device.path) {
                case .stopped: return
                case .timedOut: continue
                case .readable: break
                }
                guard let next = try readAvailable(session, &queue) else { return }
                batch = next
            }
            queue.read(events: batch.events, at: monotonicSeconds(), dropped: batch.dropped)
            session.limitPeriod(to: queue.longestPeriod)
        }
    }

    /// Reads every event queued now and yields a sample per report; `nil` when a read failed because the session
    /// is stopping.
    ///
    /// libevdev is asked to read from the kernel only when its own queue is empty (`LIBEVDEV_READ_FLAG_BLOCKING`
    /// on a non-blocking descriptor): one `read` takes every event the kernel holds, and a last one finds none,
    /// instead of a `read` per event. After `SYN_DROPPED` the device's state is read again (libevdev's sync mode)
    /// and reading goes on.
    private func readAvailable(_ session: ReaderSession, _ queue: inout EvdevQueuePacing) throws -> Batch? {
        let normal = LIBEVDEV_READ_FLAG_NORMAL.rawValue | LIBEVDEV_READ_FLAG_BLOCKING.rawValue
        let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
        var syncing = false
        var events = 0
        var dropped = false
        var event = input_event()
        while true {
            let status = libevdev_next_event(device.handle, syncing ? sync : normal, &event)
            if status == -EAGAIN {
                if syncing {
                    syncing = false  // resynchronised; back to the normal stream
                    continue
                }
                return (events, dropped)
            }
            if status == LIBEVDEV_READ_STATUS_SYNC.rawValue && !syncing {
                syncing = true  // SYN_DROPPED: read the device's current state as synthetic events
                dropped = true
                eventsInReport = 0
                clock.resynchronise()
                continue
            }
            do {
                try checkNegativeErrno(status, "read events", device: device.path)
            } catch {
                if session.isStopRequested { return nil }
                throw error.classified
            }
            if !syncing { events += 1 }
            eventsInReport += 1
            if let sample = apply(event) { session.yield(sample) }
            if Int32(event.type) == EV_SYN && Int32(event.code) == SYN_REPORT {
                queue.reportEnded(events: eventsInReport)
                eventsInReport = 0
            }
        }
    }

    /// Updates the axis state; returns a sample at the end of a report.
    private func apply(_ event: input_event) -> AccelSample? {
        switch Int32(event.type) {
        case EV_ABS:
            switch event.code {
            case axes.codes.x: x = event.value
            case axes.codes.y: y = event.value
            case axes.codes.z: z = event.value
            default: break
            }
            return nil
        case EV_MSC where Int32(event.code) == MSC_TIMESTAMP:
            clock.hardwareTimestamp(event.value)
            return nil
        case EV_SYN where Int32(event.code) == SYN_REPORT:
            var time = event
            let microseconds = CEvdev_input_event_sec(&time) * 1_000_000 + CEvdev_input_event_usec(&time)
            guard case .sample(let timestamp) = clock.sampleTime(eventTime: Double(microseconds) / 1_000_000) else {
                return nil
            }
            let converted = axes.convert(x: x, y: y, z: z)
            let (dx, dy, dz) = mountMatrix.apply(x: converted.x, y: converted.y, z: converted.z)
            return AccelSample(timestamp: timestamp, x: dx, y: dy, z: dz)
        default:
            return nil
        }
    }
}

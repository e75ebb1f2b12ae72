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
/// The reader thread sleeps in `poll` until the kernel sends events; each `SYN_REPORT` becomes one sample,
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
        try start(keeping: { { _ in true } })
    }

    public func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        try slot.start(name: "evdev \(info.devicePath)", keeping: makeFilter) {
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

    init(device: EvdevDevice, axes: EvdevAxes, mountMatrix: MountMatrix) {
        self.device = device
        self.axes = axes
        self.mountMatrix = mountMatrix
        x = device.value(Int32(axes.codes.x))
        y = device.value(Int32(axes.codes.y))
        z = device.value(Int32(axes.codes.z))
    }

    func run(_ session: ReaderSession) throws {
        let normal = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
        var event = input_event()
        while true {
            // Not paced: after a SYN_DROPPED libevdev discards what is queued up to the next report, so a reader
            // that lets events gather would lose whole reports. Every available event is read per wake-up.
            switch try session.wait(readable: device.descriptor, device: device.path) {
            case .stopped: return
            case .timedOut: continue
            case .readable: break
            }
            var flags = normal
            while true {
                let status = libevdev_next_event(device.handle, flags, &event)
                if status == -EAGAIN {
                    if flags == sync {
                        flags = normal  // resynchronised; back to the normal stream
                        continue
                    }
                    break
                }
                if status == LIBEVDEV_READ_STATUS_SYNC.rawValue && flags == normal {
                    flags = sync  // SYN_DROPPED: read the device's current state as synthetic events
                    clock.resynchronise()
                    continue
                }
                do {
                    try checkNegativeErrno(status, "read events", device: device.path)
                } catch {
                    if session.isStopRequested { return }
                    throw error.classified
                }
                if let sample = apply(event) { session.yield(sample) }
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

import CEvdev
import Foundation
import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An evdev accelerometer (`INPUT_PROP_ACCELEROMETER` with ABS_X/Y/Z) read from its event stream.
///
/// The reader thread sleeps in `poll` until the kernel sends events; each `SYN_REPORT` becomes one sample,
/// timestamped with the event time and converted with each axis' resolution (units per g) to m/s².
/// After `SYN_DROPPED` the device state is resynchronised (libevdev's sync mode) and reading goes on.
/// ``stop()`` closes the device node.
public final class EvdevAccelerometer: AccelerometerSource {
    public let info: SourceInfo
    private let mountMatrix: MountMatrix
    private let slot = ReaderSessionSlot()

    /// Creates a source for the event device `info.devicePath`; nothing is opened until ``start()``.
    init(info: SourceInfo, mountMatrix: MountMatrix) {
        self.info = info
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
            let axes = try device.accelerometerAxes()
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

    /// The conversion of ABS_X, ABS_Y, ABS_Z to m/s², or why this is not a usable accelerometer.
    func accelerometerAxes() throws(EvdevSetupError) -> EvdevAxes {
        guard libevdev_has_property(handle, UInt32(INPUT_PROP_ACCELEROMETER)) == 1 else {
            throw EvdevSetupError(device: path, problem: "not an accelerometer (no INPUT_PROP_ACCELEROMETER)")
        }
        var resolutions: [Int32] = []
        for code in [ABS_X, ABS_Y, ABS_Z] {
            guard libevdev_has_event_code(handle, UInt32(EV_ABS), UInt32(code)) == 1,
                let absinfo = libevdev_get_abs_info(handle, UInt32(code))
            else {
                throw EvdevSetupError(device: path, problem: "no ABS_X/ABS_Y/ABS_Z axes")
            }
            guard absinfo.pointee.resolution > 0 else {
                throw EvdevSetupError(
                    device: path,
                    problem: "axis \(code) has no resolution (units per g unknown); set EVDEV_ABS_0\(code) in hwdb")
            }
            resolutions.append(absinfo.pointee.resolution)
        }
        return EvdevAxes(unitsPerG: (Double(resolutions[0]), Double(resolutions[1]), Double(resolutions[2])))
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

/// How raw ABS values become m/s²: `value / unitsPerG × g`.
public struct EvdevAxes: Sendable, Equatable {
    /// Each axis' resolution, units per g.
    public var unitsPerG: (x: Double, y: Double, z: Double)

    /// Creates a conversion.
    public init(unitsPerG: (x: Double, y: Double, z: Double)) {
        self.unitsPerG = unitsPerG
    }

    /// Converts raw axis values to m/s².
    public func convert(x: Int32, y: Int32, z: Int32) -> (x: Double, y: Double, z: Double) {
        let g = AccelSample.standardGravity
        return (Double(x) / unitsPerG.x * g, Double(y) / unitsPerG.y * g, Double(z) / unitsPerG.z * g)
    }

    public static func == (lhs: EvdevAxes, rhs: EvdevAxes) -> Bool {
        lhs.unitsPerG == rhs.unitsPerG
    }
}

/// An event device that cannot be used as an accelerometer, and why.
public struct EvdevSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node.
    public var device: String
    /// What is missing.
    public var problem: String

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
    private var lastTimestamp = -Double.infinity

    init(device: EvdevDevice, axes: EvdevAxes, mountMatrix: MountMatrix) {
        self.device = device
        self.axes = axes
        self.mountMatrix = mountMatrix
        x = device.value(ABS_X)
        y = device.value(ABS_Y)
        z = device.value(ABS_Z)
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
            switch Int32(event.code) {
            case ABS_X: x = event.value
            case ABS_Y: y = event.value
            case ABS_Z: z = event.value
            default: break
            }
            return nil
        case EV_SYN where Int32(event.code) == SYN_REPORT:
            var time = event
            let microseconds = CEvdev_input_event_sec(&time) * 1_000_000 + CEvdev_input_event_usec(&time)
            let timestamp = Double(microseconds) / 1_000_000
            guard timestamp > lastTimestamp else { return nil }
            lastTimestamp = timestamp
            let converted = axes.convert(x: x, y: y, z: z)
            let (dx, dy, dz) = mountMatrix.apply(x: converted.x, y: converted.y, z: converted.z)
            return AccelSample(timestamp: timestamp, x: dx, y: dy, z: dz)
        default:
            return nil
        }
    }
}

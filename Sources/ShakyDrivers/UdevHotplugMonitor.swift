import CUdev
import Foundation
import ShakyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What happened to the accelerometer in use.
public enum HotplugEvent: Sendable, Equatable {
    /// The device in use was removed.
    case gone(device: String)
    /// A matching device appeared after the device was gone: discover and open it again.
    case back(device: String)
    /// A device that might be an accelerometer appeared while none is in use (or the one in use is gone): look
    /// for one again.
    case appeared(device: String)
}

/// Decides from udev events whether the device in use went away or came back; pure, so testable with injected events.
///
/// "Gone" is a `remove` of the device in use (same sysfs path or node). "Back" is an `add`, after a gone,
/// of a device in the same subsystem with the same node or the same name (the same sensor plugged in again,
/// perhaps with another number). "Appeared" is an `add` of any other IIO device or input event node while no
/// device is in use or the one in use is gone (a sensor plugged in for the first time).
public struct HotplugTracker: Sendable {
    /// The device being watched.
    public private(set) var watched: SourceInfo
    /// Whether the watched device is currently gone.
    public private(set) var isGone = false
    /// Whether any new device is reported (``HotplugEvent/appeared(device:)``) while the watched one is gone.
    public var reportsNewDevices: Bool

    /// Watches the device `info` describes; with `reportsNewDevices`, any new candidate counts while it is gone.
    public init(watching info: SourceInfo, reportsNewDevices: Bool = false) {
        watched = info
        self.reportsNewDevices = reportsNewDevices
    }

    /// Watches for any new device while none is in use.
    public init(waitingForAnyDevice: Void = ()) {
        watched = SourceInfo(driver: "none", devicePath: "", deviceName: "")
        reportsNewDevices = true
        isGone = true
    }

    /// The subsystem the device lives in.
    private var subsystem: String { watched.driver.hasPrefix("iio") ? "iio" : "input" }

    /// Whether `device` is something a driver could open: an IIO device or an input event node.
    private static func isOpenable(_ device: UdevDevice) -> Bool {
        switch device.subsystem {
        case "iio": device.sysname.hasPrefix("iio:device")
        case "input": device.devicePath != nil && device.sysname.hasPrefix("event")
        default: false
        }
    }

    /// Takes one udev event; returns what it means for the device in use, if anything.
    public mutating func handle(_ device: UdevDevice) -> HotplugEvent? {
        if let back = handleWatched(device) { return back }
        guard reportsNewDevices, isGone, device.action == "add", Self.isOpenable(device) else { return nil }
        return .appeared(device: device.devicePath ?? "/dev/\(device.sysname)")
    }

    /// Gone and back of the watched device.
    private mutating func handleWatched(_ device: UdevDevice) -> HotplugEvent? {
        guard device.subsystem == subsystem else { return nil }
        let sameNode = device.devicePath != nil && device.devicePath == watched.devicePath
        let sameSysname = subsystem == "iio" && "/dev/\(device.sysname)" == watched.devicePath
        let samePath = watched.sysfsPath != nil && device.sysfsPath == watched.sysfsPath
        switch device.action {
        case "remove":
            guard !isGone, sameNode || samePath || sameSysname else { return nil }
            isGone = true
            return .gone(device: watched.devicePath)
        case "add":
            let sameName = device.name != nil && device.name == watched.deviceName
            let hasNode = device.devicePath != nil || subsystem == "iio"
            guard isGone, hasNode, sameNode || sameSysname || sameName else { return nil }
            isGone = false
            let node = device.devicePath ?? "/dev/\(device.sysname)"
            watched.devicePath = node
            watched.sysfsPath = device.sysfsPath
            return .back(device: node)
        default:
            return nil
        }
    }

    /// Records that the device was found gone another way (its stream ended with ``AccelerometerGoneError``).
    public mutating func markGone() {
        isGone = true
    }
}

/// Watches udev (netlink) for the accelerometer in use going away and coming back, on a thread of its own.
///
/// ```swift
/// let monitor = try UdevHotplugMonitor(watching: source.info)
/// for await event in monitor.events { … }   // .gone, then .back when it is plugged in again
/// ```
public final class UdevHotplugMonitor: Sendable {
    /// The hotplug events, in order; finishes after ``stop()``.
    public let events: AsyncStream<HotplugEvent>
    private let state: State
    private let wakeup: WakeupPipe

    /// What the monitor thread shares with callers.
    private final class State: Sendable {
        let tracker: Mutex<HotplugTracker>
        let finished = DispatchSemaphore(value: 0)

        init(tracker: HotplugTracker) {
            self.tracker = Mutex(tracker)
        }
    }

    /// Starts listening (subsystems `iio` and `input`) for changes to the device `info` describes; with
    /// `reportsNewDevices`, also for any new device while it is gone.
    public convenience init(watching info: SourceInfo, reportsNewDevices: Bool = false) throws {
        try self.init(tracker: HotplugTracker(watching: info, reportsNewDevices: reportsNewDevices))
    }

    /// Starts listening for any new IIO device or input event node (``HotplugEvent/appeared(device:)``).
    public convenience init(waitingForAnyDevice: Void = ()) throws {
        try self.init(tracker: HotplugTracker(waitingForAnyDevice: ()))
    }

    private init(tracker: HotplugTracker) throws {
        let monitor = HandOver(try UdevNetlinkMonitor(subsystems: ["iio", "input"]))
        let (events, continuation) = AsyncStream.makeStream(of: HotplugEvent.self)
        let state = State(tracker: tracker)
        let wakeup = try WakeupPipe()
        self.events = events
        self.state = state
        self.wakeup = wakeup
        let thread = Thread(named: "udev-hotplug") {
            let monitor = monitor.take()
            while let device = monitor.next(wakeup: wakeup) {
                if let event = state.tracker.withLock({ $0.handle(device) }) { continuation.yield(event) }
            }
            continuation.finish()
            state.finished.signal()
        }
        thread.start()
    }

    deinit {
        wakeup.signal()
    }

    /// Records that the device was found gone by its reader, so the next matching `add` reports ``HotplugEvent/back(device:)``.
    public func markGone() {
        state.tracker.withLock { $0.markGone() }
    }

    /// Whether the watched device is currently gone.
    public var isGone: Bool { state.tracker.withLock { $0.isGone } }

    /// Stops listening and finishes ``events``.
    public func stop() {
        wakeup.signal()
        state.finished.wait()
        state.finished.signal()
    }
}

/// The one owner of a libudev netlink monitor and its context: the hotplug watch's (`iio` and `input`) and the buzzer
/// reader's (`input`, polled beside its devices).
final class UdevNetlinkMonitor {
    private let context: UdevContext
    private let monitor: OpaquePointer
    /// Readable when udev has an event (the monitor is non-blocking).
    let descriptor: Int32

    /// Creates a monitor of udev's processed events (`"udev"`) for `subsystems`, already receiving.
    init(subsystems: [String]) throws(DeviceError) {
        let context = try UdevContext()
        self.context = context
        var created: OpaquePointer?
        try checkSyscall("create a udev monitor", device: "udev netlink") {
            created = udev_monitor_new_from_netlink(context.pointer, "udev")
            return created == nil ? -1 : 0
        }
        guard let created else { throw DeviceError(device: "udev netlink", operation: "monitor", code: ENOMEM) }
        monitor = created
        do {
            for subsystem in subsystems {
                try checkNegativeErrno(
                    udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil),
                    "watch subsystem \(subsystem)", device: "udev netlink")
            }
            try checkNegativeErrno(
                udev_monitor_enable_receiving(monitor), "receive udev events", device: "udev netlink")
            descriptor = try checkNegativeErrno(
                udev_monitor_get_fd(monitor), "get the monitor's descriptor", device: "udev")
        } catch {
            // `deinit` does not run for an object that failed to initialise: the monitor and its socket go here.
            udev_monitor_unref(monitor)
            throw error
        }
    }

    deinit {
        udev_monitor_unref(monitor)
    }

    /// Blocks until the next device event, or returns `nil` once `wakeup` is signalled or the monitor fails.
    func next(wakeup: WakeupPipe) -> UdevDevice? {
        while true {
            var fds = [
                pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            ]
            guard (try? checkSyscall("wait for udev events", device: "udev netlink", { poll(&fds, 2, -1) })) != nil
            else { return nil }
            if fds[0].revents != 0 { return nil }
            guard fds[1].revents & Int16(POLLIN) != 0 else {
                if fds[1].revents != 0 { return nil }
                continue
            }
            guard let device = receive() else { continue }
            return device
        }
    }

    /// The next event, when one is waiting.
    func receive() -> UdevDevice? {
        guard let handle = udev_monitor_receive_device(monitor) else { return nil }
        defer { udev_device_unref(handle) }
        return UdevDevice(copying: handle)
    }
}

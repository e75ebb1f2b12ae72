import CEvdev
import CUdev
import Foundation
import ShakyCore
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What happens on the buzzer devices.
public enum BuzzerDeviceEvent: Sendable, Equatable {
    /// A device is read from now on (at start, or newly plugged in).
    case attached(BuzzerCandidate)
    /// Keys or buttons went down: one reorder window's presses, in kernel-time order (see ``PressReorderWindow``).
    case pressed([ButtonPress])
    /// A device went away (unplugged, or its node failed); its buttons keep their teams.
    case gone(identity: String, devicePath: String)
    /// A device that was gone is back, perhaps under another node.
    case back(identity: String, devicePath: String)
}

/// Reads every buzzer device on one thread and hands on their presses in the order the kernel stamped them.
///
/// Each device gets `EVIOCSCLOCKID` CLOCK_MONOTONIC, so all event times are on one clock, and is grabbed
/// (`EVIOCGRAB`) unless it is a keyboard (the host may type on it; `grabKeyboards` grabs those too). One
/// `poll` waits on all of them, the wake-up pipe and udev's netlink monitor; each wake-up reads everything
/// every ready device has. Presses pass through a ``PressReorderWindow``. A device whose reads fail, or that
/// udev removes, is reported gone; when udev adds a device with the same identity it is opened again and
/// reported back. A device added while another with the same identity is open gets a distinct one
/// (``EvdevBuzzerDiscovery/distinctIdentity(_:taken:)``). Key repeats, releases and the state libevdev replays
/// after `SYN_DROPPED` are not presses.
public final class EvdevBuzzerReader: Sendable {
    /// The events, in order; finishes after ``stop()``.
    public let events: AsyncStream<BuzzerDeviceEvent>
    private let wakeup: WakeupPipe
    private let finished = DispatchSemaphore(value: 0)
    private let stopRequested = StopFlag()

    /// Opens the usable `candidates` and starts reading; `watchHotplug` also follows udev add/remove events.
    public init(
        candidates: [BuzzerCandidate], grabKeyboards: Bool = false,
        reorderWidth: Duration = PressReorderWindow.standardWidth, watchHotplug: Bool = true,
        discovery: EvdevBuzzerDiscovery = EvdevBuzzerDiscovery()
    ) throws {
        let (events, continuation) = AsyncStream.makeStream(
            of: BuzzerDeviceEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let wakeup = try WakeupPipe()
        self.events = events
        self.wakeup = wakeup
        let monitor = watchHotplug ? try? UdevNetlinkMonitor(subsystems: ["input"]) : nil
        let loop = HandOver(
            BuzzerReadLoop(
                grabKeyboards: grabKeyboards, window: PressReorderWindow(width: reorderWidth), monitor: monitor,
                discovery: discovery, emit: { continuation.yield($0) }))
        let finished = finished
        let stopRequested = stopRequested
        let thread = Thread(named: "buzzers") {
            let loop = loop.take()
            for candidate in candidates where candidate.isUsable { loop.attach(candidate, isReturn: false) }
            loop.run(wakeup: wakeup) { stopRequested.isSet }
            continuation.finish()
            finished.signal()
        }
        thread.start()
    }

    deinit {
        stopRequested.set()
        wakeup.signal()
    }

    /// Stops reading, hands on any held presses, releases the grabs and closes the devices.
    public func stop() {
        stopRequested.set()
        wakeup.signal()
        finished.wait()
        finished.signal()
    }
}

/// A flag the reader thread checks, set once from any thread.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Raises the flag.
    func set() {
        value.store(true, ordering: .releasing)
    }
}

/// The state of the reader thread: the open devices and the presses held for reordering.
final class BuzzerReadLoop {
    private struct OpenDevice {
        var device: EvdevDevice
        var candidate: BuzzerCandidate
        var isGrabbed: Bool
    }

    private let grabKeyboards: Bool
    private var window: PressReorderWindow
    private let monitor: UdevNetlinkMonitor?
    private let discovery: EvdevBuzzerDiscovery
    private let emit: (BuzzerDeviceEvent) -> Void
    private var open: [OpenDevice] = []
    private var gone: Set<String> = []

    /// The longest a press may have waited in the kernel before being read; a larger or negative age means the
    /// event time is not on CLOCK_MONOTONIC (the device refused `EVIOCSCLOCKID`), so the press counts as new.
    static let plausibleAge: Duration = .seconds(2)

    init(
        grabKeyboards: Bool, window: PressReorderWindow, monitor: UdevNetlinkMonitor?, discovery: EvdevBuzzerDiscovery,
        emit: @escaping (BuzzerDeviceEvent) -> Void
    ) {
        self.grabKeyboards = grabKeyboards
        self.window = window
        self.monitor = monitor
        self.discovery = discovery
        self.emit = emit
    }

    /// Opens a device, sets its clock, grabs it if it serves only as buzzers, and starts reading it, under its
    /// identity made distinct from those of the devices already open
    /// (``EvdevBuzzerDiscovery/distinctIdentity(_:taken:)``).
    func attach(_ candidate: BuzzerCandidate, isReturn: Bool) {
        guard !open.contains(where: { $0.candidate.devicePath == candidate.devicePath }) else { return }
        guard let device = try? EvdevDevice(path: candidate.devicePath) else { return }
        var candidate = candidate
        candidate.identity = EvdevBuzzerDiscovery.distinctIdentity(
            candidate.identity, taken: Set(open.map(\.candidate.identity)))
        device.useMonotonicClock()
        let grab = (candidate.kind?.grabbedByDefault ?? false) || grabKeyboards
        let isGrabbed = grab && libevdev_grab(device.handle, LIBEVDEV_GRAB) == 0
        open.append(OpenDevice(device: device, candidate: candidate, isGrabbed: isGrabbed))
        if isReturn || gone.contains(candidate.identity) {
            gone.remove(candidate.identity)
            emit(.back(identity: candidate.identity, devicePath: candidate.devicePath))
        } else {
            emit(.attached(candidate))
        }
    }

    private func detach(at index: Int) {
        let entry = open.remove(at: index)
        if entry.isGrabbed { _ = libevdev_grab(entry.device.handle, LIBEVDEV_UNGRAB) }
        gone.insert(entry.candidate.identity)
        emit(.gone(identity: entry.candidate.identity, devicePath: entry.candidate.devicePath))
    }

    /// Waits and reads until `isStopped` says so.
    func run(wakeup: WakeupPipe, isStopped: () -> Bool) {
        while !isStopped() {
            var fds = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            fds.append(pollfd(fd: monitor?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
            let polled = open
            fds += polled.map { pollfd(fd: $0.device.descriptor, events: Int16(POLLIN), revents: 0) }
            let timeout = window.deadline.map { Self.milliseconds(until: $0) } ?? -1
            // poll fails only for a bad descriptor list or lack of memory; the reader stops then.
            guard (try? checkSyscall("wait for buzzer keys") { poll(&fds, nfds_t(fds.count), timeout) }) != nil
            else { break }
            if isStopped() || fds[0].revents != 0 { break }
            var failed: [String] = []
            for (index, entry) in polled.enumerated() where fds[index + 2].revents != 0 {
                if !drain(entry.device, candidate: entry.candidate) { failed.append(entry.candidate.devicePath) }
            }
            for path in failed {
                if let index = open.firstIndex(where: { $0.candidate.devicePath == path }) { detach(at: index) }
            }
            // After the reads: a device udev adds or removes changes `open`.
            if fds[1].revents & Int16(POLLIN) != 0, let device = monitor?.receive() { handle(udev: device) }
            let released = window.release(at: monotonicNow())
            if !released.isEmpty { emit(.pressed(released.map(aged))) }
        }
        let held = window.flush()
        if !held.isEmpty { emit(.pressed(held.map(aged))) }
        for entry in open where entry.isGrabbed { _ = libevdev_grab(entry.device.handle, LIBEVDEV_UNGRAB) }
        open.removeAll()
    }

    /// Reads every event the device has; returns `false` when the device failed (it is gone).
    private func drain(_ device: EvdevDevice, candidate: BuzzerCandidate) -> Bool {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(device.handle, flags, &event)
            if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return true
            }
            if status < 0 { return false }
            if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // SYN_DROPPED: libevdev replays the device's state; keys held now were pressed at an unknown time.
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                continue
            }
            guard Int32(event.type) == EV_KEY, event.value == 1 else { continue }
            var time = event
            let seconds = CEvdev_input_event_sec(&time)
            let microseconds = CEvdev_input_event_usec(&time)
            guard seconds >= 0, seconds < 1 << 40, (0..<1_000_000).contains(microseconds) else { continue }
            let key = Int(event.code)
            let press = ButtonPress(
                button: ButtonID(device: candidate.identity, key: key), keyName: BuzzerKeys.name(key),
                devicePath: candidate.devicePath,
                kernelTime: .seconds(seconds) + .microseconds(microseconds), age: .zero)
            window.add(press, at: monotonicNow())
        }
    }

    /// The press with its age (kernel time to now) filled in, or zero when the time is implausible.
    private func aged(_ press: ButtonPress) -> ButtonPress {
        var press = press
        let age = monotonicNow() - press.kernelTime
        press.age = age >= .zero && age <= Self.plausibleAge ? age : .zero
        return press
    }

    private func handle(udev device: UdevDevice) {
        guard let node = device.devicePath, node.hasPrefix("/dev/input/event") else { return }
        switch device.action {
        case "remove":
            if let index = open.firstIndex(where: { $0.candidate.devicePath == node }) { detach(at: index) }
        case "add":
            // attach() makes the identity distinct from those of the devices open now, and says "back" for one gone.
            let candidate = discovery.examine(path: node)
            guard candidate.isUsable else { return }
            attach(candidate, isReturn: false)
        default:
            break
        }
    }

    private static func milliseconds(until deadline: Duration) -> Int32 {
        let left = deadline - monotonicNow()
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}

/// CLOCK_MONOTONIC now, the clock buzzer events are stamped with.
func monotonicNow() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
}

import CEvdev
import CUdev
import Foundation
import Logging
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
    /// A device went away (unplugged, or its node is gone); its buttons keep their teams.
    case gone(identity: String, devicePath: String)
    /// A device that was gone is back, perhaps under another node.
    case back(identity: String, devicePath: String)
}

/// Reads every buzzer device on one thread and hands on their presses in the order the kernel stamped them.
///
/// Each device gets `EVIOCSCLOCKID` CLOCK_MONOTONIC, so all event times are on one clock, and is grabbed
/// (`EVIOCGRAB`) unless it is a keyboard (the host may type on it; `grabKeyboards` grabs those too). One
/// `poll` waits on all of them, the wake-up pipe and udev's netlink monitor; each wake-up reads everything
/// every ready device has. Presses pass through a ``PressReorderWindow``. A device that udev removes, or whose
/// read says `ENODEV`, is reported gone; when udev adds a device with the same identity it is opened again and
/// reported back. Another read error leaves the device where it is: its node is opened again (at once, then after
/// a growing pause while reads keep failing) under the same identity, and it is reported gone only when its node
/// is no longer there. A device added while another with the same identity is open gets a distinct one
/// (``EvdevBuzzerDiscovery/distinctIdentity(_:taken:)``). Key repeats, releases and the state libevdev replays
/// after `SYN_DROPPED` are not presses.
public final class EvdevBuzzerReader: Sendable {
    /// The events, in order; finishes after ``stop()``.
    public let events: AsyncStream<BuzzerDeviceEvent>
    private let wakeup: WakeupPipe
    private let finished = DispatchSemaphore(value: 0)
    private let stopRequested = StopFlag()

    /// Opens the usable `candidates` and starts reading; `watchHotplug` also follows udev add/remove events.
    /// Failed reads of a device still plugged in go to `logger`.
    public init(
        candidates: [BuzzerCandidate], grabKeyboards: Bool = false,
        reorderWidth: Duration = PressReorderWindow.standardWidth, watchHotplug: Bool = true,
        discovery: EvdevBuzzerDiscovery = EvdevBuzzerDiscovery(),
        logger: Logger = Logger(label: "shakyd.buzzers") { _ in SwiftLogNoOpLogHandler() }
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
                discovery: discovery, logger: logger, emit: { continuation.yield($0) }))
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
        /// The open node; `nil` while it waits to be opened again after failed reads (out of the poll set).
        var device: EvdevDevice?
        var candidate: BuzzerCandidate
        var isGrabbed: Bool
        /// Failed reads in a row and the pause before the next try to open the node again.
        var retry = BuzzerReadLoop.retryPolicy
        /// When to open the node again, while `device` is `nil`.
        var reopenAt: Duration?
    }

    /// How a device's read ended.
    enum DrainOutcome: Equatable {
        /// Everything it had was read.
        case drained
        /// The device was unplugged (`ENODEV`).
        case unplugged
        /// Another error (a positive errno): the device may still be there.
        case failed(Int32)
    }

    /// How a try to open a node again ended.
    private enum ReopenOutcome {
        case reopened
        /// The node no longer exists.
        case gone
        /// The node holds another device now.
        case replaced
        case failed(DeviceError)
    }

    private let grabKeyboards: Bool
    private var window: PressReorderWindow
    private let monitor: UdevNetlinkMonitor?
    private let discovery: EvdevBuzzerDiscovery
    private let logger: Logger
    private let emit: (BuzzerDeviceEvent) -> Void
    private var open: [OpenDevice] = []
    private var gone: Set<String> = []

    /// The longest a press may have waited in the kernel before being read; a larger or negative age means the
    /// event time is not on CLOCK_MONOTONIC (the device refused `EVIOCSCLOCKID`), so the press counts as new.
    static let plausibleAge: Duration = .seconds(2)

    /// After a failed read the node is opened again at once; when reads keep failing, after 50 ms, 100 ms… up
    /// to 2 s, out of the poll set meanwhile, so a device failing on every wake-up cannot keep `poll` spinning.
    static let retryPolicy = ReadRetryPolicy(initialDelay: 0.05, maximumDelay: 2)

    init(
        grabKeyboards: Bool, window: PressReorderWindow, monitor: UdevNetlinkMonitor?, discovery: EvdevBuzzerDiscovery,
        logger: Logger, emit: @escaping (BuzzerDeviceEvent) -> Void
    ) {
        self.grabKeyboards = grabKeyboards
        self.window = window
        self.monitor = monitor
        self.discovery = discovery
        self.logger = logger
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
        let isGrabbed = prepare(device, for: candidate)
        open.append(OpenDevice(device: device, candidate: candidate, isGrabbed: isGrabbed))
        if isReturn || gone.contains(candidate.identity) {
            gone.remove(candidate.identity)
            emit(.back(identity: candidate.identity, devicePath: candidate.devicePath))
        } else {
            emit(.attached(candidate))
        }
    }

    /// Sets the device's clock and grabs it if it serves only as buzzers; returns whether it is grabbed.
    private func prepare(_ device: EvdevDevice, for candidate: BuzzerCandidate) -> Bool {
        device.useMonotonicClock()
        let grab = (candidate.kind?.grabbedByDefault ?? false) || grabKeyboards
        return grab && libevdev_grab(device.handle, LIBEVDEV_GRAB) == 0
    }

    private func detach(at index: Int) {
        let entry = open.remove(at: index)
        if entry.isGrabbed, let device = entry.device { _ = libevdev_grab(device.handle, LIBEVDEV_UNGRAB) }
        gone.insert(entry.candidate.identity)
        emit(.gone(identity: entry.candidate.identity, devicePath: entry.candidate.devicePath))
    }

    /// Waits and reads until `isStopped` says so.
    func run(wakeup: WakeupPipe, isStopped: () -> Bool) {
        while !isStopped() {
            var fds = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            fds.append(pollfd(fd: monitor?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
            let polled = open.compactMap { entry in
                entry.device.map { (path: entry.candidate.devicePath, descriptor: $0.descriptor) }
            }
            fds += polled.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let deadlines = [window.deadline] + open.map(\.reopenAt)
            let timeout = deadlines.compactMap { $0 }.min().map { Self.milliseconds(until: $0) } ?? -1
            // poll fails only for a bad descriptor list or lack of memory; the reader stops then.
            guard (try? checkSyscall("wait for buzzer keys") { poll(&fds, nfds_t(fds.count), timeout) }) != nil
            else { break }
            if isStopped() || fds[0].revents != 0 { break }
            var unplugged: [String] = []
            var failed: [(path: String, code: Int32)] = []
            for (index, entry) in polled.enumerated() where fds[index + 2].revents != 0 {
                switch readDevice(entry.path, revents: fds[index + 2].revents) {
                case .drained: break
                case .unplugged: unplugged.append(entry.path)
                case .failed(let code): failed.append((entry.path, code))
                }
            }
            for path in unplugged {
                if let index = open.firstIndex(where: { $0.candidate.devicePath == path }) { detach(at: index) }
            }
            // After the reads: a device udev adds or removes changes `open`; a removal that comes with a failed
            // read is taken before the failure is, so an unplugged device is not opened again.
            if fds[1].revents & Int16(POLLIN) != 0 {
                while let device = monitor?.receive() { handle(udev: device) }
            }
            for failure in failed { recover(failure.path, code: failure.code) }
            reopenDue()
            let released = window.release(at: monotonicNow())
            if !released.isEmpty { emit(.pressed(released.map(aged))) }
        }
        let held = window.flush()
        if !held.isEmpty { emit(.pressed(held.map(aged))) }
        for entry in open where entry.isGrabbed {
            if let device = entry.device { _ = libevdev_grab(device.handle, LIBEVDEV_UNGRAB) }
        }
        open.removeAll()
    }

    /// Reads the open device at `path` (whose poll said `revents`), noting a read that ends well as a success.
    private func readDevice(_ path: String, revents: Int16) -> DrainOutcome {
        guard let index = open.firstIndex(where: { $0.candidate.devicePath == path }),
            let device = open[index].device
        else { return .drained }
        var outcome = drain(device, candidate: open[index].candidate)
        // A hang-up or error the read did not report would wake every poll at once: a failure too.
        if outcome == .drained, revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { outcome = .failed(EIO) }
        if outcome == .drained, open[index].retry.succeeded() > 0 {
            logger.info("buzzer device reads again", metadata: ["device": "\(path)"])
        }
        return outcome
    }

    /// A read of the device at `path` failed with `code` but udev did not say it was removed: it is opened again
    /// at once the first time, after a growing pause when reads keep failing, and reported gone only when its
    /// node is no longer there (or holds another device).
    private func recover(_ path: String, code: Int32) {
        guard let index = open.firstIndex(where: { $0.candidate.devicePath == path }) else { return }
        let failure = DeviceError(device: path, operation: "read buzzer events", code: code)
        switch open[index].retry.failed(devicePresent: Self.nodeExists(path)) {
        case .gone:
            detach(at: index)
        case .retry(let delay, let firstInARow):
            closeNode(at: index)
            if firstInARow {
                logger.warning(
                    "reading a buzzer device failed; opening it again",
                    metadata: ["device": "\(path)", "error": "\(failure)"])
                if settle(reopen(at: index), at: index, countingFailure: false) { return }
            }
            open[index].reopenAt = monotonicNow() + .seconds(delay)
        }
    }

    /// Opens again the devices whose pause after failed reads is over.
    private func reopenDue() {
        let now = monotonicNow()
        let due = open.filter { $0.device == nil && ($0.reopenAt ?? now) <= now }.map(\.candidate.devicePath)
        for path in due {
            guard let index = open.firstIndex(where: { $0.candidate.devicePath == path }) else { continue }
            _ = settle(reopen(at: index), at: index, countingFailure: true)
        }
    }

    /// Acts on a try to open the device at `index` again: reading it, reporting it gone (and taking up the device
    /// that took its node), or waiting before the next try, the failure counted when `countingFailure` (the first
    /// try after a failed read is counted with it). Returns whether the device is settled (read again, or gone).
    private func settle(_ outcome: ReopenOutcome, at index: Int, countingFailure: Bool) -> Bool {
        let path = open[index].candidate.devicePath
        switch outcome {
        case .reopened:
            open[index].reopenAt = nil
            return true
        case .gone:
            detach(at: index)
            return true
        case .replaced:
            detach(at: index)
            // Its udev "add" was passed over while the node was still taken.
            attachNew(path: path)
            return true
        case .failed(let error):
            guard countingFailure else { return false }
            switch open[index].retry.failed(devicePresent: Self.nodeExists(path)) {
            case .gone:
                detach(at: index)
                return true
            case .retry(let delay, _):
                logger.debug("cannot open a buzzer device again yet", metadata: ["error": "\(error)"])
                open[index].reopenAt = monotonicNow() + .seconds(delay)
                return false
            }
        }
    }

    /// Releases the grab and closes the node of the device at `index`, keeping its place and identity.
    private func closeNode(at index: Int) {
        if open[index].isGrabbed, let device = open[index].device { _ = libevdev_grab(device.handle, LIBEVDEV_UNGRAB) }
        open[index].device = nil
        open[index].isGrabbed = false
    }

    /// Opens the node of the device at `index` again, as ``attach(_:isReturn:)`` does (a fresh libevdev state,
    /// so keys held now are state, not presses), checking it is still the same device.
    private func reopen(at index: Int) -> ReopenOutcome {
        let candidate = open[index].candidate
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: candidate.devicePath)
        } catch {
            return [ENOENT, ENODEV, ENXIO].contains(error.code) ? .gone : .failed(error)
        }
        guard device.name == candidate.name else { return .replaced }
        open[index].isGrabbed = prepare(device, for: candidate)
        open[index].device = device
        return .reopened
    }

    /// Whether a device node is still there.
    private static func nodeExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Reads every event the device has.
    private func drain(_ device: EvdevDevice, candidate: BuzzerCandidate) -> DrainOutcome {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(device.handle, flags, &event)
            if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            }
            if status == -ENODEV { return .unplugged }
            // A negative errno; `0 - status` cannot trap, as status is negative and not Int32.min.
            if status < 0 { return .failed(status == Int32.min ? EIO : -status) }
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
            attachNew(path: node)
        default:
            break
        }
    }

    /// Takes up a device plugged in at `path` when it can serve; ``attach(_:isReturn:)`` makes its identity distinct
    /// from those of the devices open now, and says "back" for one that was gone.
    private func attachNew(path: String) {
        let candidate = discovery.examine(path: path)
        guard candidate.isUsable else { return }
        attach(candidate, isReturn: false)
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

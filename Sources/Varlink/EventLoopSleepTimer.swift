import NIOCore
import NIOPosix
import Synchronization

/// One sleep on an event loop's scheduled task that cancelling the sleeping task cancels and releases at once.
///
/// `Task.sleep` ends at once when its task is cancelled too, but the timer it queued stays until its deadline. A
/// connection's idle timer sleeps for the whole idle timeout (ten minutes by default), so with `Task.sleep` every
/// connection that hung up kept its timer for that long: a few hundred bytes each in the middle of the heap, which
/// kept the pages around them resident after a burst of watchers left, and one more wake-up of the process each
/// when it expired. `Task.sleep` also goes through libdispatch, which then wakes the process every second for as
/// long as it runs (``EventLoopClock`` says why that matters).
final class EventLoopSleepTimer: Sendable {
    private enum State {
        case waiting
        case armed(Scheduled<Void>, CheckedContinuation<Void, any Error>)
        case cancelled
        case done
    }

    private let loop: any EventLoop
    private let state = Mutex(State.waiting)

    /// Creates a timer on `loop`; ``sleep(until:)`` arms it, once.
    init(on loop: any EventLoop) {
        self.loop = loop
    }

    /// Whether the timer is armed: a sleep is waiting for its deadline.
    var isArmed: Bool {
        state.withLock { state in
            if case .armed = state { return true }
            return false
        }
    }

    /// Returns at `deadline`, or throws `CancellationError` as soon as the task is cancelled (at once, without
    /// arming, if it already is), the scheduled task cancelled and its closure released. Call once per timer.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                arm(at: deadline, resuming: continuation)
            }
        } onCancel: {
            finish(cancelled: true)
        }
    }

    private func arm(at deadline: ContinuousClock.Instant, resuming continuation: CheckedContinuation<Void, any Error>)
    {
        // The loop's deadlines are on CLOCK_MONOTONIC, the continuous clock's on CLOCK_BOOTTIME: carry the time left
        // (NIO's conversion saturates; a deadline past is due at once).
        let loopDeadline = NIODeadline.now() + TimeAmount(ContinuousClock.now.duration(to: deadline))
        // Armed under the lock, so that neither its run nor a cancellation finds the state before it is set.
        let alreadyCancelled = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            let scheduled = loop.scheduleTask(deadline: loopDeadline) { [self] in finish(cancelled: false) }
            state = .armed(scheduled, continuation)
            return false
        }
        if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// Resumes the sleep, once: at the deadline, or with `CancellationError` when `cancelled`.
    private func finish(cancelled: Bool) {
        let armed = state.withLock { state -> (Scheduled<Void>, CheckedContinuation<Void, any Error>)? in
            switch state {
            case .armed(let scheduled, let continuation):
                state = .done
                return (scheduled, continuation)
            case .waiting where cancelled:
                state = .cancelled
                return nil
            case .waiting, .cancelled, .done:
                return nil
            }
        }
        guard let (scheduled, continuation) = armed else { return }
        if cancelled {
            // Takes the task out of the loop's schedule, and with it the closure's reference to this timer.
            scheduled.cancel()
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume()
        }
    }
}

/// The continuous clock, sleeping on an event loop's scheduled tasks instead of `Task.sleep`.
///
/// `Task.sleep` hands its wake-up to libdispatch, which on Linux starts a monitor of its worker threads with the
/// first such use and from then on wakes the process every second, for good. A daemon whose tasks run on NIO's event
/// loop (as `shakyd` sets them to) and sleep on this clock never starts it: waiting, it does not wake at all. A
/// cancelled sleep also gives its scheduled task back at once (``EventLoopSleepTimer``).
public struct EventLoopClock: Clock {
    /// The continuous clock's instants: readings of the two clocks compare.
    public typealias Instant = ContinuousClock.Instant

    private let loop: any EventLoop

    /// A clock whose sleeps are scheduled on a loop of NIO's singleton group (the one a ``VarlinkServer`` serves on
    /// unless told otherwise).
    public init() {
        self.init(on: MultiThreadedEventLoopGroup.singleton.any())
    }

    /// A clock whose sleeps are scheduled on `loop`.
    public init(on loop: any EventLoop) {
        self.loop = loop
    }

    /// The continuous clock's reading now.
    public var now: Instant { ContinuousClock.now }

    /// The continuous clock's resolution.
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Returns at `deadline` (on the continuous clock), or throws `CancellationError` as soon as the task is
    /// cancelled; `tolerance` is not used.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await EventLoopSleepTimer(on: loop).sleep(until: deadline)
    }
}

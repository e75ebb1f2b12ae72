import Dispatch
import Synchronization

/// One sleep on a dispatch timer that cancelling the sleeping task disarms and releases at once.
///
/// `Task.sleep` ends at once when its task is cancelled too, but the timer it queued stays until its deadline. A
/// connection's idle timer sleeps for the whole idle timeout (ten minutes by default), so with `Task.sleep` every
/// connection that hung up kept its timer for that long: a few hundred bytes each in the middle of the heap, which
/// kept the pages around them resident after a burst of watchers left, and one more wake-up of the process each
/// when it expired.
final class DispatchSleepTimer: Sendable {
    private enum State {
        case waiting
        case armed(any DispatchSourceTimer, CheckedContinuation<Void, any Error>)
        case cancelled
        case done
    }

    private let state = Mutex(State.waiting)

    /// Creates a timer; ``sleep(until:)`` arms it, once.
    init() {}

    /// Whether the timer is armed: a sleep is waiting for its deadline.
    var isArmed: Bool {
        state.withLock { state in
            if case .armed = state { return true }
            return false
        }
    }

    /// Returns at `deadline`, or throws `CancellationError` as soon as the task is cancelled (at once, without
    /// arming, if it already is), the timer disarmed and its handler released. Call once per timer.
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
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        // Dispatch adds seconds as a Double saturating: a deadline past, or centuries away, is now or never.
        let wait = max(Double(seconds) + Double(attoseconds) * 1e-18, 0)
        // Armed under the lock, so that neither its event nor a cancellation finds the state before it is set.
        let alreadyCancelled = state.withLock { state -> Bool in
            if case .cancelled = state { return true }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [self] in finish(cancelled: false) }
            timer.schedule(deadline: .now() + wait, leeway: .milliseconds(10))
            timer.resume()
            state = .armed(timer, continuation)
            return false
        }
        if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// Resumes the sleep, once: at the deadline, or with `CancellationError` when `cancelled`.
    private func finish(cancelled: Bool) {
        let armed = state.withLock { state -> (any DispatchSourceTimer, CheckedContinuation<Void, any Error>)? in
            switch state {
            case .armed(let timer, let continuation):
                state = .done
                return (timer, continuation)
            case .waiting where cancelled:
                state = .cancelled
                return nil
            case .waiting, .cancelled, .done:
                return nil
            }
        }
        guard let (timer, continuation) = armed else { return }
        // Cancelling the source releases its event handler, and with it the handler's reference to this timer.
        timer.cancel()
        if cancelled {
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume()
        }
    }
}

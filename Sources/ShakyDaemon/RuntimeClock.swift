import Dispatch
import Synchronization

/// The runtime's view of a monotonic clock: time since the runtime started, and sleeping until such a time.
///
/// Wraps any `Clock<Duration>` (a `ContinuousClock` in the daemon, a `ManualClock` in tests), so the game
/// sees plain `Duration` readings and persists durations, never instants.
public struct RuntimeClock: Sendable {
    /// Time since the clock was made.
    public let now: @Sendable () -> Duration
    /// Suspends until `now()` reaches the given reading; throws on cancellation.
    public let sleepUntil: @Sendable (Duration) async throws -> Void
    /// Runs the work on the queue once `now()` reaches the reading, unless the timer is cancelled first.
    ///
    /// On the continuous clock dispatch runs it on the queue at the deadline, with no task in between (one thread
    /// woken, not a task's thread and then the queue's); on any other clock (a `ManualClock` in tests) a task sleeps
    /// until the reading, then hands the work to the queue.
    let wakeUp: @Sendable (Duration, DispatchQueue, @escaping @Sendable () -> Void) -> RuntimeTimer

    /// Wraps `clock`, taking its current reading as zero.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        self = Self.wrapping(clock)
    }

    /// Wraps an existential clock.
    public init(_ clock: any Clock<Duration>) {
        self = Self.wrapping(clock)
    }

    private init(
        now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void,
        wakeUp: @escaping @Sendable (Duration, DispatchQueue, @escaping @Sendable () -> Void) -> RuntimeTimer
    ) {
        self.now = now
        self.sleepUntil = sleepUntil
        self.wakeUp = wakeUp
    }

    private static func wrapping<C: Clock<Duration>>(_ clock: C) -> RuntimeClock {
        let start = clock.now
        let now: @Sendable () -> Duration = { start.duration(to: clock.now) }
        let sleepUntil: @Sendable (Duration) async throws -> Void = { reading in
            try await clock.sleep(until: start.advanced(by: reading), tolerance: nil)
        }
        guard clock is ContinuousClock else {
            return RuntimeClock(now: now, sleepUntil: sleepUntil) { reading, queue, work in
                let sleeper = Task {
                    do {
                        try await sleepUntil(reading)
                    } catch {
                        return
                    }
                    queue.async(execute: work)
                }
                return RuntimeTimer { sleeper.cancel() }
            }
        }
        return RuntimeClock(now: now, sleepUntil: sleepUntil) { reading, queue, work in
            let cancelled = CancelFlag()
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds(reading - now()))) {
                if !cancelled.isSet { work() }
            }
            return RuntimeTimer { cancelled.set() }
        }
    }

    /// `duration` in whole nanoseconds, none when negative, at most `Int.max`.
    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .max }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}

/// A wake-up that ``RuntimeClock`` scheduled: cancelling it before it runs means it never runs.
struct RuntimeTimer: Sendable {
    let cancel: @Sendable () -> Void
}

/// Whether a dispatched timer was cancelled (it still runs, and does nothing).
private final class CancelFlag: Sendable {
    private let flag = Atomic(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() {
        flag.store(true, ordering: .releasing)
    }
}

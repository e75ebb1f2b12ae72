/// The runtime's view of a monotonic clock: time since the runtime started, and sleeping until such a time.
///
/// Wraps any `Clock<Duration>` (a `ContinuousClock` in the daemon, a `ManualClock` in tests), so the game
/// sees plain `Duration` readings and persists durations, never instants.
public struct RuntimeClock: Sendable {
    /// Time since the clock was made.
    public let now: @Sendable () -> Duration
    /// Suspends until `now()` reaches the given reading; throws on cancellation.
    public let sleepUntil: @Sendable (Duration) async throws -> Void
    /// Makes the alarm that runs `fire` on the inbox when `now()` reaches the reading it is set to.
    ///
    /// On the continuous clock, or a clock reading it (`EventLoopClock`), it is the inbox thread's own alarm
    /// (``InboxAlarm``): the thread runs `fire` when its wait for work reaches the deadline, with no task and no
    /// other thread in between. On any other clock (a `ManualClock` in tests) a task sleeps until the reading, then
    /// hands the work to the inbox.
    let makeAlarm: @Sendable (InboxThread, @escaping @Sendable () -> Void) -> any RuntimeAlarm

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
        makeAlarm: @escaping @Sendable (InboxThread, @escaping @Sendable () -> Void) -> any RuntimeAlarm
    ) {
        self.now = now
        self.sleepUntil = sleepUntil
        self.makeAlarm = makeAlarm
    }

    private static func wrapping<C: Clock<Duration>>(_ clock: C) -> RuntimeClock {
        let start = clock.now
        let now: @Sendable () -> Duration = { start.duration(to: clock.now) }
        let sleepUntil: @Sendable (Duration) async throws -> Void = { reading in
            try await clock.sleep(until: start.advanced(by: reading), tolerance: nil)
        }
        // The continuous clock, or one reading it (`EventLoopClock`): the inbox thread waits on the same time.
        guard C.Instant.self == ContinuousClock.Instant.self else {
            return RuntimeClock(now: now, sleepUntil: sleepUntil) { inbox, fire in
                TaskRuntimeAlarm(inbox: inbox, sleepUntil: sleepUntil, fire: fire)
            }
        }
        return RuntimeClock(now: now, sleepUntil: sleepUntil) { inbox, fire in
            InboxAlarm(inbox: inbox, now: now, fire: fire)
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

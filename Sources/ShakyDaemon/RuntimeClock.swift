#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The runtime's view of a monotonic clock: time since the runtime started, and sleeping until such a time.
///
/// Wraps any `Clock<Duration>` (a `ContinuousClock` in the daemon, a `ManualClock` in tests), so the game
/// sees plain `Duration` readings and persists durations, never instants. Setting the wall clock moves neither.
/// The continuous clock counts the time the system spends suspended; ``slept`` says how much of it that was.
public struct RuntimeClock: Sendable {
    /// Time since the clock was made.
    public let now: @Sendable () -> Duration
    /// How long the system has been asleep (suspended) since the clock was made: for the continuous clock, how far
    /// CLOCK_BOOTTIME, which counts a suspend, has run ahead of CLOCK_MONOTONIC, which does not; zero on other clocks
    /// unless given.
    public let slept: @Sendable () -> Duration
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

    /// Wraps `clock`, with `slept` telling how long the system has been asleep since (a test's suspend).
    public init(_ clock: any Clock<Duration>, slept: @escaping @Sendable () -> Duration) {
        let wrapped = Self.wrapping(clock)
        self.init(now: wrapped.now, slept: slept, sleepUntil: wrapped.sleepUntil, makeAlarm: wrapped.makeAlarm)
    }

    private init(
        now: @escaping @Sendable () -> Duration, slept: @escaping @Sendable () -> Duration = { .zero },
        sleepUntil: @escaping @Sendable (Duration) async throws -> Void,
        makeAlarm: @escaping @Sendable (InboxThread, @escaping @Sendable () -> Void) -> any RuntimeAlarm
    ) {
        self.now = now
        self.slept = slept
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
        let asleepAtStart = systemSleep()
        let slept: @Sendable () -> Duration = { systemSleep() - asleepAtStart }
        return RuntimeClock(now: now, slept: slept, sleepUntil: sleepUntil) { inbox, fire in
            InboxAlarm(inbox: inbox, now: now, fire: fire)
        }
    }

    /// How far CLOCK_BOOTTIME is ahead of CLOCK_MONOTONIC: the time the system has spent suspended since it booted.
    static func systemSleep() -> Duration {
        func reading(_ clock: clockid_t) -> Duration {
            var now = timespec()
            clock_gettime(clock, &now)
            return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
        }
        let monotonic = reading(CLOCK_MONOTONIC)
        return reading(CLOCK_BOOTTIME) - monotonic
    }

    /// `duration` in whole nanoseconds, none when negative, at most `Int.max`.
    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .max }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}

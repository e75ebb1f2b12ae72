/// The runtime's view of a monotonic clock: time since the runtime started, and sleeping until such a time.
///
/// Wraps any `Clock<Duration>` (a `ContinuousClock` in the daemon, a `ManualClock` in tests), so the game
/// sees plain `Duration` readings and persists durations, never instants.
public struct RuntimeClock: Sendable {
    /// Time since the clock was made.
    public let now: @Sendable () -> Duration
    /// Suspends until `now()` reaches the given reading; throws on cancellation.
    public let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`, taking its current reading as zero.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        self = Self.wrapping(clock)
    }

    /// Wraps an existential clock.
    public init(_ clock: any Clock<Duration>) {
        self = Self.wrapping(clock)
    }

    private init(
        now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.sleepUntil = sleepUntil
    }

    private static func wrapping<C: Clock<Duration>>(_ clock: C) -> RuntimeClock {
        let start = clock.now
        return RuntimeClock(
            now: { start.duration(to: clock.now) },
            sleepUntil: { reading in try await clock.sleep(until: start.advanced(by: reading), tolerance: nil) })
    }
}

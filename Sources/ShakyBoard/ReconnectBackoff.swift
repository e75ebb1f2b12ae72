/// How long the board waits before it tries the daemon again: doubling from `initial` up to `maximum`, so a
/// restart is picked up within a second and a daemon that stays away costs one try every few seconds.
public struct ReconnectBackoff: Equatable, Sendable {
    /// The wait after the first failure.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// A backoff from `initial` doubling up to `maximum`.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait after `failures` failures in a row (1 is the first).
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = initial
        var step = 1
        while step < failures, delay < maximum {
            delay *= 2
            step += 1
        }
        return min(delay, maximum)
    }
}

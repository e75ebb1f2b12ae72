/// How long a client that follows the game (the board, `shaky watch`, `shaky play`) waits before it tries the daemon
/// again: doubling from `initial` up to `maximum`, so a restart is picked up within a second and a daemon that stays
/// away costs one try every few seconds.
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

    /// Tries `connection` again and again until the task is cancelled (then it throws `CancellationError`) or a try
    /// throws. A try that returns (the daemon went away, or could not be reached) is a failure: `failed` hears the
    /// number of failures in a row, and the wait for that many is taken with `sleep` before the next try.
    ///
    /// A try calls the function it is handed whenever it has heard from the daemon: it returns the failures before
    /// (more than 0 the first time after an outage), and the count starts again.
    public func retry(
        sleep: @Sendable (Duration) async throws -> Void,
        connection: (_ heardFromDaemon: () -> Int) async throws -> Void,
        failed: (_ failuresInARow: Int) async throws -> Void
    ) async throws {
        var failures = 0
        while true {
            try await connection {
                defer { failures = 0 }
                return failures
            }
            try Task.checkCancellation()
            failures += 1
            try await failed(failures)
            try await sleep(delay(afterFailures: failures))
        }
    }
}

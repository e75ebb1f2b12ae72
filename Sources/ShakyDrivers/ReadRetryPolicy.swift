/// What a polled reader does after a failed read: try again after a growing pause while the device is still
/// in sysfs (an I²C glitch gives a single `EIO` on a Pi), and stop only when the device has left.
///
/// Pure: the reading loop passes in whether the device is still present and gets back what to do. A success
/// resets the pause.
public struct ReadRetryPolicy: Sendable, Equatable {
    /// The first pause, seconds.
    public var initialDelay: Double
    /// The longest pause, seconds.
    public var maximumDelay: Double
    /// Failed reads in a row.
    public private(set) var consecutiveFailures = 0

    /// What to do after a failure.
    public enum Decision: Sendable, Equatable {
        /// Read again after this many seconds; `firstInARow` says whether this begins a run of failures (log it
        /// once).
        case retry(after: Double, firstInARow: Bool)
        /// The device has left: end the stream with "gone".
        case gone
    }

    /// A policy starting at `initialDelay` (10 ms) and doubling up to `maximumDelay` (1 s).
    public init(initialDelay: Double = 0.01, maximumDelay: Double = 1) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// A read failed; `devicePresent` says whether the device is still in sysfs.
    public mutating func failed(devicePresent: Bool) -> Decision {
        guard devicePresent else { return .gone }
        consecutiveFailures += 1
        var delay = initialDelay
        for _ in 1..<min(consecutiveFailures, 32) { delay = min(delay * 2, maximumDelay) }
        return .retry(after: min(delay, maximumDelay), firstInARow: consecutiveFailures == 1)
    }

    /// A read succeeded; returns how many failures in a row it ends (0 when none), so the loop can say it
    /// recovered.
    @discardableResult
    public mutating func succeeded() -> Int {
        defer { consecutiveFailures = 0 }
        return consecutiveFailures
    }
}

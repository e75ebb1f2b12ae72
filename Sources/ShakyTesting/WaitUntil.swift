/// Polls `condition` (every 2 ms of real time) until it holds; throws ``WaitTimedOut`` after 10 s.
///
/// For what a test cannot await directly (a watcher registered, a task asleep on a ``ManualClock``); time a test
/// controls is moved by the test, never waited for here.
public func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// What ``waitUntil(_:_:)`` waited for did not happen within 10 s.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public var what: String

    public var description: String { "timed out waiting until \(what)" }
}

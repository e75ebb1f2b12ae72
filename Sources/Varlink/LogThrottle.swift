import Logging
import Synchronization

/// Lets a message that may repeat through at most once per ``interval`` for each key, and counts the repeats held
/// back in between: what a client or a device does over and over (a malformed message on each new connection, a
/// device that keeps coming and going) must not make the log grow at its pace.
///
/// Not synchronized: keep it where its owner's other state is kept (an actor, a lock, one task).
public struct LogThrottle: Sendable {
    /// The least time between two messages under one key.
    public let interval: Duration
    /// Per key: when its message was last let through, and how many have been held back since.
    private var entries: [String: (loggedAt: Duration, heldBack: Int)] = [:]
    /// The most keys remembered; beyond them all are forgotten (each key's next message then gets through).
    static let mostKeys = 64
    /// The reading ``admit(_:)`` measures from.
    private let origin = ContinuousClock.now

    /// Creates a throttle letting one message per key through every `interval`.
    public init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// Whether the message under `key` may be logged at `now` (a reading of a monotonic clock): `nil` to hold it back,
    /// otherwise how many of its repeats were held back since it was last logged (0 the first time).
    public mutating func admit(_ key: String, at now: Duration) -> Int? {
        if let entry = entries[key] {
            guard now - entry.loggedAt >= interval else {
                entries[key] = (entry.loggedAt, entry.heldBack + 1)
                return nil
            }
            entries[key] = (now, 0)
            return entry.heldBack
        }
        if entries.count >= Self.mostKeys { entries.removeAll(keepingCapacity: true) }
        entries[key] = (now, 0)
        return 0
    }

    /// ``admit(_:at:)`` now, on the continuous clock.
    public mutating func admit(_ key: String) -> Int? {
        admit(key, at: origin.duration(to: .now))
    }

    /// Logs `message` at `level` unless one under `key` (by default the message itself) was logged less than
    /// ``interval`` ago; it then says how many like it were held back in between.
    public mutating func log(
        _ level: Logger.Level, _ message: String, key: String? = nil, metadata: Logger.Metadata? = nil,
        to logger: Logger
    ) {
        guard let heldBack = admit(key ?? message) else { return }
        logger.log(level: level, "\(Self.message(message, heldBack: heldBack))", metadata: metadata)
    }

    /// `message`, followed by how many like it were held back (`heldBack` from ``admit(_:at:)``), when any were.
    public static func message(_ message: String, heldBack: Int) -> String {
        heldBack == 0 ? message : "\(message) (\(heldBack) more like it not logged since the last)"
    }
}

/// A ``LogThrottle`` that several tasks share (the watchers of one stream, say), behind a lock.
public final class SharedLogThrottle: Sendable {
    private let throttle: Mutex<LogThrottle>

    /// Creates a throttle letting one message per key through every `interval`.
    public init(interval: Duration = .seconds(60)) {
        throttle = Mutex(LogThrottle(interval: interval))
    }

    /// ``LogThrottle/log(_:_:key:metadata:to:)`` under the lock.
    public func log(
        _ level: Logger.Level, _ message: String, key: String? = nil, metadata: Logger.Metadata? = nil,
        to logger: Logger
    ) {
        // The message is formed and logged outside the lock; only the decision is made under it.
        guard let heldBack = throttle.withLock({ $0.admit(key ?? message) }) else { return }
        logger.log(level: level, "\(LogThrottle.message(message, heldBack: heldBack))", metadata: metadata)
    }
}

import Logging
import Synchronization

/// A log handler that keeps every message logged, for tests that check what was said and how often.
public final class LogRecorder: LogHandler, @unchecked Sendable {
    /// Every message, in the order logged.
    public let messages = Mutex<[String]>([])
    /// Each message's level, in the same order.
    public let levels = Mutex<[Logger.Level]>([])
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    /// Creates an empty recorder.
    public init() {}

    /// A logger writing to this recorder.
    public func logger() -> Logger {
        Logger(label: "test") { _ in self }
    }

    /// How many messages begin with `prefix`.
    public func count(startingWith prefix: String) -> Int {
        messages.withLock { $0.count { $0.hasPrefix(prefix) } }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
        levels.withLock { $0.append(event.level) }
    }
}

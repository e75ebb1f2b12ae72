import Logging
import Synchronization

/// A log handler that keeps every message, so tests can count what was logged.
final class SoundLogRecorder: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
    }

    private let recorded = Mutex<[Entry]>([])

    var entries: [Entry] { recorded.withLock { $0 } }

    /// Messages at warning level or above.
    var warnings: [String] { entries.filter { $0.level >= .warning }.map(\.message) }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "shaky.sound.test") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ entry: Entry) { recorded.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let recorder: SoundLogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(Entry(level: event.level, message: event.message.description))
        }
    }
}

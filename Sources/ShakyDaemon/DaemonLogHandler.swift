import Foundation
import Logging
import ShakyCore
import SystemCalls

/// Writes log lines to standard error, in the shape journald expects when it is the reader.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with the syslog priority (`<3>` for errors, as
/// `sd-daemon.h` defines) and carries no timestamp, since the journal adds its own. Elsewhere lines carry
/// an ISO 8601 timestamp and the level name.
public struct DaemonLogHandler: LogHandler {
    /// Whether lines are written for journald.
    public let forJournal: Bool
    private let label: String
    private let write: @Sendable (String) -> Void

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler writing to standard error.
    public init(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(label: label, forJournal: environment["JOURNAL_STREAM"] != nil) { line in
            StandardStreams.writeError(line)
        }
    }

    /// Creates a handler that hands each finished line to `write` (for tests).
    public init(label: String, forJournal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.forJournal = forJournal
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        let suffix = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line: String
        if forJournal {
            line = "<\(Self.syslogPriority(event.level))>\(event.message)\(suffix)\n"
        } else {
            let time = UTCDateText.iso8601(Date())
            line = "\(time) \(event.level) \(label): \(event.message)\(suffix)\n"
        }
        write(line)
    }

    /// The syslog priority journald reads from a `<N>` line prefix.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}

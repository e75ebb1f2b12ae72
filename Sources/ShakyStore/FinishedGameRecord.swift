import Foundation
import GRDB

/// A row of the `finishedGame` table: one finished game and its full result as JSON.
struct FinishedGameRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "finishedGame"

    /// GRDB's text for dates, written without ICU (``StorageDateText``).
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        StorageDateText.encodingStrategy
    }

    /// GRDB's text for dates, read without ICU (``StorageDateText``).
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        StorageDateText.decodingStrategy
    }

    var id: Int64?
    /// When the game ended (stored to the millisecond, UTC).
    var finishedAt: Date
    /// The `GameResult`'s JSON encoding.
    var result: String
    /// How the game counts (a `FinishedGameKind` raw value).
    var kind: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// How a finished game counts in the records.
public enum FinishedGameKind: String, Codable, Equatable, Sendable, CaseIterable {
    /// A real game: on the leaderboard.
    case played
    /// A demonstration (`shaky demo`): in the history, marked, not on the leaderboard.
    case demo
    /// Ended because a new game replaced it: in the history, marked, not on the leaderboard.
    case replaced
    /// Ended before any team scored: in the history, marked, not on the leaderboard.
    case scoreless
}

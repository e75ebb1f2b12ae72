import Foundation
import GRDB

/// A row of the `finishedGame` table: one finished game and its full result as JSON.
struct FinishedGameRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "finishedGame"

    var id: Int64?
    /// When the game ended (stored to the millisecond, UTC).
    var finishedAt: Date
    /// The `GameResult`'s JSON encoding.
    var result: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

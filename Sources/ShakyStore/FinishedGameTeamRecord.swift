import Foundation
import GRDB
import ShakyCore

/// A row of the `finishedGameTeam` table: one team's line in a finished game, for history and the leaderboard.
struct FinishedGameTeamRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "finishedGameTeam"

    var id: Int64?
    var finishedGameId: Int64
    /// The team's name as it was spelled in that game.
    var team: String
    /// The team's name folded for grouping ignoring case (``TeamNameKey``).
    var teamKey: String
    var points: Int
    var rank: Int
    var isWinner: Bool

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

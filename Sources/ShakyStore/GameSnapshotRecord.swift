import GRDB

/// The single row of the `gameSnapshot` table: the current game, as JSON.
struct GameSnapshotRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "gameSnapshot"

    /// Always 1: the schema admits one row only.
    var id: Int64 = 1
    /// The game's JSON encoding (sorted keys, so equal games encode equally).
    var game: String
    /// The finished game recorded from this very snapshot, so it is never recorded twice.
    var finishedGameId: Int64?

    /// The snapshot row, if one is saved.
    static func current(_ db: Database) throws -> GameSnapshotRecord? {
        try GameSnapshotRecord.fetchOne(db, key: 1)
    }
}

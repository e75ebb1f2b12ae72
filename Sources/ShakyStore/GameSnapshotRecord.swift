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
    ///
    /// Every save of the game reads it and writes it, so both go through a statement SQLite prepared once (GRDB's
    /// record methods build their SQL at each call: a third of a save's cost before).
    static func current(_ db: Database) throws -> GameSnapshotRecord? {
        let select = try db.cachedStatement(sql: "SELECT game, finishedGameId FROM gameSnapshot WHERE id = 1")
        guard let row = try Row.fetchOne(select) else { return nil }
        return GameSnapshotRecord(game: row["game"], finishedGameId: row["finishedGameId"])
    }

    /// Saves this row as the snapshot, over the one saved before, if any.
    func write(into db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO gameSnapshot (id, game, finishedGameId) VALUES (1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET game = excluded.game, finishedGameId = excluded.finishedGameId
                """)
        try upsert.execute(arguments: [game, finishedGameId])
    }
}

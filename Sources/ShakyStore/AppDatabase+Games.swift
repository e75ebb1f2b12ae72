import Foundation
import GRDB
import ShakyCore
import SystemCalls
import TriviaEngine

// The current game snapshot and the history of finished games.
extension AppDatabase {
    /// Runs `body` in one write transaction: snapshot saves and history records made through it commit
    /// together, or not at all when `body` throws.
    ///
    /// ```swift
    /// try database.transaction { store in
    ///     try store.saveSnapshot(game)
    ///     try store.recordFinishedGame(result, finishedAt: now)
    /// }
    /// ```
    ///
    /// The commit is on the disk when this returns unless `durability` says otherwise (``SaveDurability``).
    public func transaction<T>(
        durability: SaveDurability = .disk, _ body: (StoreTransaction) throws -> T
    ) throws -> T {
        try write(durability) { db in try body(StoreTransaction(db: db, snapshotJSON: snapshotJSON)) }
    }

    /// Saves `game` as the current game snapshot, replacing the previous one; on the disk when this returns unless
    /// `durability` says otherwise.
    public func saveSnapshot(_ game: Game, durability: SaveDurability = .disk) throws {
        try transaction(durability: durability) { try $0.saveSnapshot(game) }
    }

    /// The saved game snapshot, or `nil` when none is saved.
    ///
    /// - Throws: ``StoreError/snapshotUnreadable(problem:)`` when the saved game cannot be decoded (for example
    ///   after a change of the game's format) or is not consistent (``Game/inconsistency``, a damaged or edited
    ///   file); ``setAsideSnapshot(at:)`` keeps it in a file and clears it.
    public func loadSnapshot() throws -> Game? {
        guard let game = try loadSnapshot(as: Game.self) else { return nil }
        if let problem = game.inconsistency { throw StoreError.snapshotUnreadable(problem: problem) }
        return game
    }

    /// The saved snapshot decoded as `type`.
    func loadSnapshot<Snapshot: Decodable>(as type: Snapshot.Type) throws -> Snapshot? {
        guard let record = try read({ db in try GameSnapshotRecord.current(db) }) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(record.game.utf8))
        } catch {
            throw StoreError.snapshotUnreadable(problem: "\(error)")
        }
    }

    /// Moves the saved snapshot out of the way, for one that ``loadSnapshot()`` cannot play on: its JSON goes, as
    /// saved, to a file beside the database (`unreadable-game-20261127T203015Z.json`, the time in UTC, numbered
    /// `…Z-2.json` rather than replacing an earlier file: ``SetAsideFileName``), then the snapshot is cleared, so the
    /// daemon starts without it and nothing of it is lost.
    ///
    /// - Returns: the file written, or `nil` when no snapshot is saved or the database is in memory (then it is
    ///   only cleared).
    public func setAsideSnapshot(at time: Date = Date()) throws -> URL? {
        guard let record = try read({ db in try GameSnapshotRecord.current(db) }) else { return nil }
        var file: URL?
        if path != ":memory:" {
            let written = SetAsideFileName.unused(
                in: URL(fileURLWithPath: path).deletingLastPathComponent(), prefix: "unreadable-game",
                fileExtension: "json", at: time)
            do {
                try Data(record.game.utf8).write(to: written, options: .atomic)
            } catch {
                throw StoreError.notWritable(path: written.path, reason: "\(error.localizedDescription)")
            }
            // The file's name is in the folder for good before the database lets go of its copy: a power cut
            // in between keeps one of the two.
            do {
                try FileAccess.syncFolder(written.deletingLastPathComponent().path)
            } catch {
                throw StoreError.notWritable(path: written.path, reason: error.reason)
            }
            file = written
        }
        try clearSnapshot()
        return file
    }

    /// Removes the current game snapshot, if any.
    public func clearSnapshot() throws {
        try transaction { try $0.clearSnapshot() }
    }

    /// Saves the finished `game` as the snapshot and records its result in the history, in one transaction.
    ///
    /// A crash cannot lose the game or count it twice: both writes commit together, and finishing the same
    /// game again (equal state, already recorded) changes nothing.
    ///
    /// - Returns: the finished game's id in the history.
    /// - Throws: ``StoreError/invalidGameResult(problem:)``.
    @discardableResult
    public func finishGame(
        _ game: Game, result: GameResult, finishedAt: Date, kind: FinishedGameKind = .played
    ) throws -> Int64 {
        try transaction { try $0.finishGame(game, result: result, finishedAt: finishedAt, kind: kind) }
    }

    /// Saves the finished `game`, corrected after its end, as the snapshot and puts its corrected `result` in place of
    /// the one its line in the history holds, in one transaction (``StoreTransaction/correctFinishedGame(_:result:)``).
    ///
    /// - Returns: the id of the line corrected, or `nil` when the game has none.
    @discardableResult
    public func correctFinishedGame(_ game: Game, result: GameResult) throws -> Int64? {
        try transaction { try $0.correctFinishedGame(game, result: result) }
    }

    /// Removes the finished game `id` from the history and the leaderboard.
    ///
    /// - Throws: ``StoreError/finishedGameNotFound(_:)``.
    public func deleteFinishedGame(id: Int64) throws {
        try transaction { try $0.deleteFinishedGame(id: id) }
    }

    /// The finished games, newest first, at most `limit` of them.
    ///
    /// "Newest" is the order they were recorded in (a sequence that only grows), not the wall clock,
    /// which a device without a real-time clock corrects after it boots.
    public func history(limit: Int = 20) throws -> [FinishedGameSummary] {
        try read { db in
            let games = try FinishedGameRecord.order(Column("id").desc)
                .limit(max(limit, 0)).fetchAll(db)
            let ids = games.compactMap(\.id)
            let teams = try FinishedGameTeamRecord.filter(ids.contains(Column("finishedGameId")))
                .order(Column("rank"), Column("id")).fetchAll(db)
            let teamsByGame = Dictionary(grouping: teams, by: \.finishedGameId)
            return games.map { game in
                let result = try? JSONDecoder().decode(GameResult.self, from: Data(game.result.utf8))
                var adjustments: [String: [ScoreAdjustment]] = [:]
                for standing in result?.standings ?? [] where !standing.adjustments.isEmpty {
                    adjustments[standing.team] = standing.adjustments
                }
                return FinishedGameSummary(
                    id: game.id!, finishedAt: game.finishedAt,
                    teams: (teamsByGame[game.id!] ?? []).map {
                        FinishedGameSummary.Team(name: $0.team, points: $0.points, rank: $0.rank, isWinner: $0.isWinner)
                    }, kind: FinishedGameKind(rawValue: game.kind) ?? .played, adjustments: adjustments)
            }
        }
    }

    /// Every team's games played, wins and total points across finished games that count (demo,
    /// replaced and scoreless games do not), teams grouped by name ignoring case; most wins first, then
    /// most points, then by name. At most `limit` entries when given.
    public func leaderboard(limit: Int? = nil) throws -> [LeaderboardEntry] {
        try read { db in
            let sql = """
                SELECT
                    (SELECT latest.team FROM finishedGameTeam latest
                        JOIN finishedGame ON finishedGame.id = latest.finishedGameId
                        WHERE latest.teamKey = line.teamKey AND finishedGame.kind = 'played'
                        ORDER BY finishedGame.id DESC LIMIT 1) AS team,
                    COUNT(*) AS gamesPlayed,
                    SUM(line.isWinner) AS wins,
                    SUM(line.points) AS totalPoints
                FROM finishedGameTeam line
                JOIN finishedGame game ON game.id = line.finishedGameId
                WHERE game.kind = 'played'
                GROUP BY line.teamKey
                ORDER BY wins DESC, totalPoints DESC, line.teamKey
                LIMIT ?
                """
            return try Row.fetchAll(db, sql: sql, arguments: [limit.map { max($0, 0) } ?? -1]).map { row in
                LeaderboardEntry(
                    team: row["team"], gamesPlayed: row["gamesPlayed"], wins: row["wins"],
                    totalPoints: row["totalPoints"])
            }
        }
    }
}

import Foundation
import GRDB
import ShakyCore
import TriviaEngine

/// The writes that can be combined in one transaction with ``AppDatabase/transaction(_:)``.
///
/// Valid only inside the closure it is given to; everything done through it commits together or not at all.
public struct StoreTransaction {
    let db: Database
    /// How a game's snapshot becomes JSON: the database's own, which keeps the questions' text between saves.
    let snapshotJSON: GameSnapshotJSON

    /// Saves `game` as the current game snapshot, replacing the previous one.
    ///
    /// A finished game saved again (its clock reading moved on a restart or a shutdown) stays linked to its line
    /// in the history, so a later correction (``correctFinishedGame(_:result:)``) updates that line.
    public func saveSnapshot(_ game: Game) throws {
        let json = try snapshotJSON.json(game)
        let current = try GameSnapshotRecord.current(db)
        // An unchanged game keeps its "already recorded" mark, so a repeated finish is not counted twice; a game over
        // keeps it too: only the game that was recorded is saved over a recorded snapshot while it is over (a new game
        // is saved first in its ready phase, which drops the mark).
        let keepsRecord = current?.game == json || game.phase == .gameOver
        let finishedGameId = keepsRecord ? current?.finishedGameId : nil
        try GameSnapshotRecord(game: json, finishedGameId: finishedGameId).write(into: db)
    }

    /// Removes the current game snapshot, if any.
    public func clearSnapshot() throws {
        _ = try GameSnapshotRecord.deleteAll(db)
    }

    /// Records a finished game in the history (without touching the snapshot); returns its id.
    ///
    /// - Throws: ``StoreError/invalidGameResult(problem:)`` when the result has no teams, a team twice
    ///   (ignoring case), an empty team name, a rank below 1, or a winner who is not one of its teams.
    @discardableResult
    public func recordFinishedGame(
        _ result: GameResult, finishedAt: Date, kind: FinishedGameKind = .played
    ) throws -> Int64 {
        try Self.validate(result)
        let kind = kind == .played && result.isScoreless ? .scoreless : kind
        var game = FinishedGameRecord(
            id: nil, finishedAt: finishedAt, result: try Self.json(result), kind: kind.rawValue)
        try game.insert(db)
        try insertTeamLines(of: result, finishedGameId: game.id!)
        return game.id!
    }

    /// Checks that `result` can be recorded: see ``recordFinishedGame(_:finishedAt:kind:)``.
    private static func validate(_ result: GameResult) throws {
        let keys = result.standings.map { TeamNameKey.of($0.team) }
        if result.standings.isEmpty {
            throw StoreError.invalidGameResult(problem: "it has no teams")
        }
        var seen: Set<String> = []
        for (standing, key) in zip(result.standings, keys) {
            if key.isEmpty { throw StoreError.invalidGameResult(problem: "a team has an empty name") }
            if !seen.insert(key).inserted {
                throw StoreError.invalidGameResult(problem: "the team “\(standing.team)” appears twice")
            }
            if standing.rank < 1 {
                throw StoreError.invalidGameResult(problem: "the team “\(standing.team)” has rank \(standing.rank)")
            }
        }
        for winner in result.winners where !keys.contains(TeamNameKey.of(winner)) {
            throw StoreError.invalidGameResult(problem: "the winner “\(winner)” is not one of the teams")
        }
    }

    /// Writes the teams' lines of a finished game, for the history and the leaderboard.
    private func insertTeamLines(of result: GameResult, finishedGameId: Int64) throws {
        let winnerKeys = Set(result.winners.map(TeamNameKey.of))
        for standing in result.standings {
            let key = TeamNameKey.of(standing.team)
            var team = FinishedGameTeamRecord(
                id: nil, finishedGameId: finishedGameId,
                team: standing.team.trimmingCharacters(in: .whitespacesAndNewlines)
                    .precomposedStringWithCanonicalMapping,
                teamKey: key, points: standing.points, rank: standing.rank, isWinner: winnerKeys.contains(key))
            try team.insert(db)
        }
    }

    /// Removes the finished game `id` from the history (and so from the leaderboard).
    ///
    /// - Throws: ``StoreError/finishedGameNotFound(_:)``.
    public func deleteFinishedGame(id: Int64) throws {
        guard try FinishedGameRecord.deleteOne(db, key: id) else { throw StoreError.finishedGameNotFound(id) }
    }

    /// Saves `game` (in its finished state) as the snapshot and records its result, together.
    ///
    /// When the snapshot already holds this very game and it was already recorded, nothing is written:
    /// a finish retried after a crash or a repeated call does not count the game twice.
    ///
    /// - Returns: the finished game's id in the history.
    @discardableResult
    public func finishGame(
        _ game: Game, result: GameResult, finishedAt: Date, kind: FinishedGameKind = .played
    ) throws -> Int64 {
        let json = try snapshotJSON.json(game)
        if let current = try GameSnapshotRecord.current(db), current.game == json, let id = current.finishedGameId {
            return id
        }
        let id = try recordFinishedGame(result, finishedAt: finishedAt, kind: kind)
        try GameSnapshotRecord(game: json, finishedGameId: id).write(into: db)
        return id
    }

    /// Saves the finished `game`, corrected after its end (an overrule or a score adjustment), as the snapshot, and
    /// puts its corrected `result` in place of the one its line in the history holds: the same line, with the time it
    /// finished, its teams' points, ranks and winners replaced. A played game that nobody scored in any more counts
    /// as scoreless, and the other way round; a demo stays a demo.
    ///
    /// A game that has no line in the history (it ended before its first question, or its line was deleted) is only
    /// saved.
    ///
    /// - Returns: the id of the line corrected, or `nil` when there is none.
    /// - Throws: ``StoreError/invalidGameResult(problem:)``.
    @discardableResult
    public func correctFinishedGame(_ game: Game, result: GameResult) throws -> Int64? {
        let json = try snapshotJSON.json(game)
        guard let id = try GameSnapshotRecord.current(db)?.finishedGameId,
            var record = try FinishedGameRecord.fetchOne(db, key: id)
        else {
            try GameSnapshotRecord(game: json, finishedGameId: nil).write(into: db)
            return nil
        }
        try Self.validate(result)
        if let kind = FinishedGameKind(rawValue: record.kind), kind == .played || kind == .scoreless {
            record.kind = (result.isScoreless ? FinishedGameKind.scoreless : .played).rawValue
        }
        record.result = try Self.json(result)
        try record.update(db)
        _ = try FinishedGameTeamRecord.filter(Column("finishedGameId") == id).deleteAll(db)
        try insertTeamLines(of: result, finishedGameId: id)
        try GameSnapshotRecord(game: json, finishedGameId: id).write(into: db)
        return id
    }

    /// `value` as JSON text with sorted keys, so equal values give equal text.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

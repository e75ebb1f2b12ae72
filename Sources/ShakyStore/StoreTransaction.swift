import Foundation
import GRDB
import TriviaEngine

/// The writes that can be combined in one transaction with ``AppDatabase/transaction(_:)``.
///
/// Valid only inside the closure it is given to; everything done through it commits together or not at all.
public struct StoreTransaction {
    let db: Database

    /// Saves `game` as the current game snapshot, replacing the previous one.
    public func saveSnapshot(_ game: Game) throws {
        let json = try Self.json(game)
        let current = try GameSnapshotRecord.current(db)
        // An unchanged game keeps its "already recorded" mark, so a repeated finish is not counted twice.
        let finishedGameId = current?.game == json ? current?.finishedGameId : nil
        try GameSnapshotRecord(game: json, finishedGameId: finishedGameId).save(db)
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
        let keys = result.standings.map { FinishedGameTeamRecord.teamKey($0.team) }
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
        let winnerKeys = Set(result.winners.map(FinishedGameTeamRecord.teamKey))
        for winner in result.winners where !keys.contains(FinishedGameTeamRecord.teamKey(winner)) {
            throw StoreError.invalidGameResult(problem: "the winner “\(winner)” is not one of the teams")
        }
        let kind = kind == .played && result.isScoreless ? .scoreless : kind
        var game = FinishedGameRecord(
            id: nil, finishedAt: finishedAt, result: try Self.json(result), kind: kind.rawValue)
        try game.insert(db)
        for (standing, key) in zip(result.standings, keys) {
            var team = FinishedGameTeamRecord(
                id: nil, finishedGameId: game.id!,
                team: standing.team.trimmingCharacters(in: .whitespacesAndNewlines)
                    .precomposedStringWithCanonicalMapping,
                teamKey: key, points: standing.points, rank: standing.rank, isWinner: winnerKeys.contains(key))
            try team.insert(db)
        }
        return game.id!
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
        let json = try Self.json(game)
        if let current = try GameSnapshotRecord.current(db), current.game == json, let id = current.finishedGameId {
            return id
        }
        let id = try recordFinishedGame(result, finishedAt: finishedAt, kind: kind)
        try GameSnapshotRecord(game: json, finishedGameId: id).save(db)
        return id
    }

    /// `value` as JSON text with sorted keys, so equal values give equal text.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

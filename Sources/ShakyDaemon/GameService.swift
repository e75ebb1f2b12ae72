import ShakyCore
import ShakyProtocol
import ShakyStore
import TriviaEngine
import Varlink

/// Serves `io.shakywords.Game`: moves go to the runtime, history and leaderboard come from the store.
struct GameService: ShakyAPI.GameInterface.Implementation {
    let runtime: GameRuntime
    let database: AppDatabase
    let watchers: WatcherHub

    func new(
        teams: [String], packs: [String]?, questions: Int?,
        difficulty: ShakyAPI.GameInterface.NewParameters.Difficulty?, seed: Int?, rules: ShakyAPI.Rules?,
        replace: Bool?
    ) async throws -> ShakyAPI.State {
        let request = NewGameRequest(
            teams: teams, packs: packs, questionCount: questions ?? 10,
            difficulty: DifficultyFilter(rawValue: (difficulty ?? .any).rawValue) ?? .any,
            settings: try rules?.gameSettings() ?? GameRules(),
            earlyPressLockout: try rules?.earlyPressLockoutDuration(), seed: seed.map { UInt64(bitPattern: Int64($0)) },
            replace: replace ?? false)
        return ShakyAPI.State(try await runtime.newGame(request))
    }

    func next() async throws -> ShakyAPI.State { try await move(.nextQuestion) }

    func skip() async throws -> ShakyAPI.State { try await move(.skipQuestion) }

    func pause() async throws -> ShakyAPI.State { try await move(.pause) }

    func resume() async throws -> ShakyAPI.State { try await move(.resume) }

    func end() async throws -> ShakyAPI.State { try await move(.endGame) }

    func buzz(team: String) async throws -> ShakyAPI.State { try await move(.buzz(team: team)) }

    func answer(team: String, answer: String) async throws -> ShakyAPI.GameInterface.AnswerReply {
        let (correct, status) = try await runtime.answer(team: team, text: answer)
        return ShakyAPI.GameInterface.AnswerReply(correct: correct, status: ShakyAPI.State(status))
    }

    func hint() async throws -> ShakyAPI.State { try await move(.hint(source: .manual)) }

    func adjustScore(team: String, delta: Int, reason: String) async throws -> ShakyAPI.State {
        try await move(.adjustScore(team: team, delta: delta, reason: reason))
    }

    func overrule() async throws -> ShakyAPI.GameInterface.OverruleReply {
        let (overruling, status) = try await runtime.overrule()
        return ShakyAPI.GameInterface.OverruleReply(
            status: ShakyAPI.State(status), overruled: overruling.map(ShakyAPI.Overruling.init))
    }

    func undoBuzz(team: String) async throws -> ShakyAPI.State { try await move(.undoBuzz(team: team)) }

    func deleteHistory(id: Int) async throws {
        try await Self.storeCall { try database.deleteFinishedGame(id: Int64(id)) }
    }

    func status() async throws -> ShakyAPI.State { ShakyAPI.State(try await runtime.status()) }

    func scoreboard() async throws -> [ShakyAPI.Standing] {
        try await runtime.scoreboard().map(ShakyAPI.Standing.init)
    }

    /// Makes a move and answers with the game after it.
    private func move(_ move: GameEvent) async throws -> ShakyAPI.State {
        ShakyAPI.State(try await runtime.makeMove(move))
    }

    /// A watcher's stream: the game as it stands, then every event (a tick each second unless `ticks` is false); a
    /// watcher that falls behind is disconnected, never waited for.
    func watch(ticks: Bool?) async throws -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        await watchers.watch(runtime, for: VarlinkRequest.current, ticks: ticks ?? true)
    }

    /// Refuses a negative `limit` (`InvalidParameter`): a client that sends one has a bug to be told of, not an
    /// empty list.
    static func checkLimit(_ limit: Int?) throws {
        if let limit, limit < 0 { throw VarlinkReplyError.invalidParameter("limit") }
    }

    func history(limit: Int?) async throws -> [ShakyAPI.FinishedGame] {
        try Self.checkLimit(limit)
        let games = try await Self.storeCall { try database.history(limit: limit ?? 20) }
        return games.map(ShakyAPI.FinishedGame.init)
    }

    func leaderboard(limit: Int?) async throws -> [ShakyAPI.LeaderboardEntry] {
        try Self.checkLimit(limit)
        let entries = try await Self.storeCall { try database.leaderboard(limit: limit) }
        return entries.map {
            ShakyAPI.LeaderboardEntry(team: $0.team, games: $0.gamesPlayed, wins: $0.wins, points: $0.totalPoints)
        }
    }

    /// Runs a store call off the event loop (``BlockingWork``), turning its errors into the Game interface's errors:
    /// a finished game that is not there is `GameNotFound`, anything else `StorageFailed`.
    static func storeCall<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws(ShakyAPI.GameInterface.ReplyError) -> T {
        try await BlockingWork.run(body) { error -> ShakyAPI.GameInterface.ReplyError in
            if case StoreError.finishedGameNotFound(let id) = error {
                return .gameNotFound(id: Int(truncatingIfNeeded: id))
            }
            return .storageFailed(message: "\(error)")
        }
    }
}

extension ShakyAPI.FinishedGame {
    init(_ summary: FinishedGameSummary) {
        self.init(
            id: Int(summary.id),
            finishedAt: UTCDateText.iso8601(summary.finishedAt),
            teams: summary.teams.map { ShakyAPI.TeamScore(name: $0.name, score: $0.points) },
            winners: summary.winners, kind: Kind(rawValue: summary.kind.rawValue),
            adjustments: summary.teams.flatMap { team in
                (summary.adjustments[team.name] ?? []).map {
                    ShakyAPI.TeamAdjustment(team: team.name, delta: $0.delta, reason: $0.reason)
                }
            })
    }
}

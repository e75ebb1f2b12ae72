import Foundation
import GRDB
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct GameRecordTests {
    private func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    @Test func snapshotSaveLoadAndClear() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.loadSnapshot() == nil)
        let game = try StoreFixtures.gameInPlay()
        try database.saveSnapshot(game)
        try database.saveSnapshot(game)
        #expect(try database.loadSnapshot() == game)
        try database.clearSnapshot()
        #expect(try database.loadSnapshot() == nil)
    }

    @Test func anUnreadableSnapshotIsReportedAndCanBeCleared() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO gameSnapshot (id, game) VALUES (1, '{\"teams\": []}')")
        }
        /// A game format whose required field the saved snapshot lacks.
        struct LaterGame: Decodable { var round: Int }
        let error = #expect(throws: StoreError.self) { try database.loadSnapshot(as: LaterGame.self) }
        guard case .snapshotUnreadable = error else {
            Issue.record("expected snapshotUnreadable, got \(String(describing: error))")
            return
        }
        try database.clearSnapshot()
        #expect(try database.loadSnapshot() == nil)
    }

    @Test func aSnapshotThatCannotBePlayedOnIsReportedAndSetAsideInAFile() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(
            path: folder.appendingPathComponent("shaky.sqlite").path, builtinPacks: .skip)
        try database.saveSnapshot(try StoreFixtures.gameInPlay())
        // A round numbered beyond the game's questions, as a damaged or edited file could hold it.
        let saved = try database.writer.write { db in
            try db.execute(sql: "UPDATE gameSnapshot SET game = json_set(game, '$.round.number', 99)")
            return try String.fetchOne(db, sql: "SELECT game FROM gameSnapshot")
        }
        let error = #expect(throws: StoreError.self) { try database.loadSnapshot() }
        guard case .snapshotUnreadable(let problem) = error else {
            Issue.record("expected snapshotUnreadable, got \(String(describing: error))")
            return
        }
        #expect(problem.contains("question number 99"))
        let file = try database.setAsideSnapshot(at: Date(timeIntervalSince1970: 1_795_811_415))
        #expect(file?.lastPathComponent == "unreadable-game-20261127T203015Z.json")
        #expect(try file.map { try String(contentsOf: $0, encoding: .utf8) } == saved)
        #expect(try database.loadSnapshot() == nil)
        #expect(try database.setAsideSnapshot() == nil, "nothing left to set aside")
    }

    @Test("A second game set aside at the same wall-clock time (a board booting without its clock) keeps the first")
    func settingAsideTwiceAtTheSameTimeKeepsBoth() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(
            path: folder.appendingPathComponent("shaky.sqlite").path, builtinPacks: .skip)
        let bootTime = Date(timeIntervalSince1970: 12)
        var contents: [String] = []
        var names: [String] = []
        for number in [7, 8] {
            try database.saveSnapshot(try StoreFixtures.gameInPlay())
            let saved = try database.writer.write { db in
                try db.execute(
                    sql: "UPDATE gameSnapshot SET game = json_set(game, '$.round.number', ?)", arguments: [number])
                return try String.fetchOne(db, sql: "SELECT game FROM gameSnapshot")
            }
            contents.append(try #require(saved))
            let file = try #require(try database.setAsideSnapshot(at: bootTime))
            names.append(file.lastPathComponent)
        }
        #expect(names == ["unreadable-game-19700101T000012Z.json", "unreadable-game-19700101T000012Z-2.json"])
        let kept = try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        #expect(kept == contents)
    }

    @Test func finishingAGameSavesTheSnapshotAndRecordsItOnce() throws {
        let database = try AppDatabase.inMemory()
        let game = try StoreFixtures.gameInPlay()
        let result = StoreFixtures.result([("Owls", 30, 1), ("Foxes", 20, 2)], winners: ["Owls"])
        let id = try database.finishGame(game, result: result, finishedAt: date(0))
        #expect(try database.loadSnapshot() == game)

        // A retried finish, or a save of the same final state in between, does not count the game twice.
        #expect(try database.finishGame(game, result: result, finishedAt: date(5)) == id)
        try database.saveSnapshot(game)
        #expect(try database.finishGame(game, result: result, finishedAt: date(9)) == id)
        let history = try database.history()
        #expect(history.count == 1)
        #expect(history.first?.finishedAt == date(0))
        #expect(history.first?.winners == ["Owls"])
        #expect(
            history.first?.teams == [
                .init(name: "Owls", points: 30, rank: 1, isWinner: true),
                .init(name: "Foxes", points: 20, rank: 2, isWinner: false),
            ])

        // A new game (here: the snapshot cleared for it) is recorded again.
        try database.clearSnapshot()
        #expect(try database.finishGame(game, result: result, finishedAt: date(60)) != id)
        #expect(try database.history().count == 2)
    }

    @Test func aFailedTransactionWritesNothing() throws {
        let database = try AppDatabase.inMemory()
        let bad = StoreFixtures.result([("Owls", 30, 1)], winners: ["Bats"])
        #expect(throws: StoreError.invalidGameResult(problem: "the winner “Bats” is not one of the teams")) {
            try database.finishGame(try StoreFixtures.gameInPlay(), result: bad, finishedAt: date(0))
        }
        struct Stop: Error {}
        let good = StoreFixtures.result([("Owls", 30, 1)], winners: ["Owls"])
        #expect(throws: Stop.self) {
            try database.transaction { store in
                try store.saveSnapshot(try StoreFixtures.gameInPlay())
                try store.recordFinishedGame(good, finishedAt: date(0))
                throw Stop()
            }
        }
        #expect(try database.loadSnapshot() == nil)
        #expect(try database.history().isEmpty)
    }

    @Test(arguments: [
        ([] as [(String, Int, Int)], [] as [String], "it has no teams"),
        ([("Owls", 3, 1), ("OWLS", 2, 2)], ["Owls"], "the team “OWLS” appears twice"),
        ([("Owls", 3, 1), ("  ", 2, 2)], ["Owls"], "a team has an empty name"),
        ([("Owls", 3, 0)], ["Owls"], "the team “Owls” has rank 0"),
    ])
    func refusesInconsistentResults(standings: [(String, Int, Int)], winners: [String], problem: String) throws {
        let database = try AppDatabase.inMemory()
        let result = StoreFixtures.result(standings, winners: winners)
        #expect(throws: StoreError.invalidGameResult(problem: problem)) {
            try database.finishGame(try StoreFixtures.gameInPlay(), result: result, finishedAt: date(0))
        }
        #expect(try database.history().isEmpty)
    }

    private func recordLeagueGames(_ database: AppDatabase) throws {
        try database.transaction { store in
            try store.recordFinishedGame(
                StoreFixtures.result([("Owls", 30, 1), ("Foxes", 20, 2)], winners: ["Owls"]), finishedAt: date(100))
            try store.recordFinishedGame(
                StoreFixtures.result([("FOXES", 40, 1), ("owls", 10, 2), ("Bees", 5, 3)], winners: ["foxes"]),
                finishedAt: date(300))
            try store.recordFinishedGame(
                StoreFixtures.result([("Foxes", 25, 1), ("Owls", 25, 1)], winners: ["Foxes", "Owls"]),
                finishedAt: date(200))
            try store.recordFinishedGame(
                StoreFixtures.result([("Ærø Crew", 12, 1), ("Bees", 0, 2)], winners: ["Ærø Crew"]), finishedAt: date(50)
            )
            try store.recordFinishedGame(
                StoreFixtures.result([("ÆRØ CREW", 3, 1)], winners: ["ærø crew"]), finishedAt: date(60))
        }
    }

    @Test func historyIsInRecordingOrderNewestFirstWhateverTheWallClockSaid() throws {
        let database = try AppDatabase.inMemory()
        try recordLeagueGames(database)
        let history = try database.history(limit: 3)
        // The last two games were recorded with a clock set back (a Pi before it corrects its time).
        #expect(history.map(\.finishedAt) == [date(60), date(50), date(200)])
        #expect(history[0].winners == ["ÆRØ CREW"])
        #expect(history[2].winners == ["Foxes", "Owls"])
        #expect(try database.history(limit: 50).count == 5)
        #expect(try database.history(limit: 0).isEmpty)
    }

    @Test func leaderboardSumsGamesWinsAndPointsPerTeamIgnoringCase() throws {
        let database = try AppDatabase.inMemory()
        try recordLeagueGames(database)
        #expect(
            try database.leaderboard() == [
                LeaderboardEntry(team: "Foxes", gamesPlayed: 3, wins: 2, totalPoints: 85),
                LeaderboardEntry(team: "Owls", gamesPlayed: 3, wins: 2, totalPoints: 65),
                LeaderboardEntry(team: "ÆRØ CREW", gamesPlayed: 2, wins: 2, totalPoints: 15),
                LeaderboardEntry(team: "Bees", gamesPlayed: 2, wins: 0, totalPoints: 5),
            ])
        #expect(try database.leaderboard(limit: 1).map(\.team) == ["Foxes"])
    }
}

@Suite struct HistoryKindTests {
    private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    @Test func demoReplacedAndScorelessGamesAreMarkedAndLeftOffTheLeaderboard() throws {
        let database = try AppDatabase.inMemory()
        let played = StoreFixtures.result([("Owls", 10, 1), ("Foxes", 0, 2)], winners: ["Owls"])
        let scoreless = StoreFixtures.result([("Owls", 0, 1), ("Foxes", 0, 1)], winners: ["Owls", "Foxes"])
        try database.transaction { store in
            try store.recordFinishedGame(played, finishedAt: date(1))
            try store.recordFinishedGame(played, finishedAt: date(2), kind: .demo)
            try store.recordFinishedGame(played, finishedAt: date(3), kind: .replaced)
            try store.recordFinishedGame(scoreless, finishedAt: date(4))
        }
        #expect(try database.history().map(\.kind) == [.scoreless, .replaced, .demo, .played])
        #expect(
            try database.leaderboard() == [
                LeaderboardEntry(team: "Owls", gamesPlayed: 1, wins: 1, totalPoints: 10),
                LeaderboardEntry(team: "Foxes", gamesPlayed: 1, wins: 0, totalPoints: 0),
            ])
    }

    @Test func aFinishedGameCanBeDeleted() throws {
        let database = try AppDatabase.inMemory()
        let result = StoreFixtures.result([("Owls", 10, 1), ("Foxes", 5, 2)], winners: ["Owls"])
        let id = try database.transaction { try $0.recordFinishedGame(result, finishedAt: date(1)) }
        try database.deleteFinishedGame(id: id)
        #expect(try database.history().isEmpty)
        #expect(try database.leaderboard().isEmpty)
        #expect(throws: StoreError.finishedGameNotFound(id)) { try database.deleteFinishedGame(id: id) }
    }

    @Test func adjustmentReasonsAreKeptInTheHistory() throws {
        let database = try AppDatabase.inMemory()
        var game = try StoreFixtures.gameInPlay()
        _ = try game.handle(.adjustScore(team: "Owls", delta: 3, reason: "best costumes"), at: .seconds(5))
        _ = try game.handle(.endGame, at: .seconds(6))
        let result = try #require(game.result)
        try database.finishGame(game, result: result, finishedAt: date(1))
        let entry = try #require(try database.history().first)
        #expect(entry.adjustments["Owls"] == [ScoreAdjustment(delta: 3, reason: "best costumes", question: 1)])
    }
}

@Suite("A finished game corrected after its end")
struct FinishedGameCorrectionTests {
    private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    /// A real game ended on its first question, nobody having scored.
    private func endedGame() throws -> Game {
        var game = try StoreFixtures.gameInPlay()
        _ = try game.handle(.endGame, at: .seconds(6))
        return game
    }

    @Test("The same line in the history takes the corrected result; its time and the line count stay")
    func aCorrectionUpdatesTheLineInPlace() throws {
        let database = try AppDatabase.inMemory()
        var game = try endedGame()
        let id = try database.finishGame(game, result: try #require(game.result), finishedAt: date(0))
        #expect(try database.history().map(\.kind) == [.scoreless])

        _ = try game.handle(.adjustScore(team: "Foxes", delta: 4, reason: "bonus"), at: .seconds(20))
        #expect(try database.correctFinishedGame(game, result: try #require(game.result)) == id)
        let history = try database.history()
        #expect(history.count == 1)
        #expect(history.first?.id == id)
        #expect(history.first?.finishedAt == date(0))
        #expect(history.first?.kind == .played, "a game somebody scored in counts once corrected")
        #expect(history.first?.winners == ["Foxes"])
        #expect(
            history.first?.teams == [
                .init(name: "Foxes", points: 4, rank: 1, isWinner: true),
                .init(name: "Owls", points: 0, rank: 2, isWinner: false),
            ])
        #expect(history.first?.adjustments["Foxes"] == [ScoreAdjustment(delta: 4, reason: "bonus", question: 1)])
        #expect(try database.leaderboard().map(\.team) == ["Foxes", "Owls"])
        #expect(try database.loadSnapshot() == game)

        // Taken back: nobody scored after all.
        _ = try game.handle(.adjustScore(team: "Foxes", delta: -4, reason: "no bonus"), at: .seconds(21))
        #expect(try database.correctFinishedGame(game, result: try #require(game.result)) == id)
        #expect(try database.history().map(\.kind) == [.scoreless])
        #expect(try database.leaderboard().isEmpty)
    }

    @Test("A finished game saved again (its clock moved, as on a shutdown) stays linked to its line")
    func aResavedFinishedGameStaysLinked() throws {
        let database = try AppDatabase.inMemory()
        var game = try endedGame()
        let id = try database.finishGame(game, result: try #require(game.result), finishedAt: date(0))
        _ = try game.handle(.clockAdvanced, at: .seconds(500))
        try database.saveSnapshot(game)
        _ = try game.handle(.adjustScore(team: "Owls", delta: 2, reason: "late fix"), at: .seconds(600))
        #expect(try database.correctFinishedGame(game, result: try #require(game.result)) == id)
        #expect(try database.history().map(\.winners) == [["Owls"]])

        // A new game drops the link: its own end is a line of its own.
        let next = try StoreFixtures.gameInPlay(seed: 9)
        try database.saveSnapshot(next)
        #expect(try database.correctFinishedGame(next, result: try #require(game.result)) == nil)
        #expect(try database.history().count == 1)
    }

    @Test("A demo corrected so that somebody scores stays a demo, off the leaderboard")
    func aCorrectedDemoStaysADemo() throws {
        let database = try AppDatabase.inMemory()
        var game = try endedGame()
        let id = try database.finishGame(game, result: try #require(game.result), finishedAt: date(0), kind: .demo)
        _ = try game.handle(.adjustScore(team: "Owls", delta: 2, reason: "late fix"), at: .seconds(20))
        #expect(try database.correctFinishedGame(game, result: try #require(game.result)) == id)
        let history = try database.history()
        #expect(history.map(\.kind) == [.demo])
        #expect(history.first?.winners == ["Owls"])
        #expect(try database.leaderboard().isEmpty)
    }

    @Test("A game whose line was deleted is only saved: the correction does not bring the line back")
    func aDeletedLineStaysDeleted() throws {
        let database = try AppDatabase.inMemory()
        var game = try endedGame()
        let id = try database.finishGame(game, result: try #require(game.result), finishedAt: date(0))
        try database.deleteFinishedGame(id: id)
        _ = try game.handle(.adjustScore(team: "Owls", delta: 2, reason: "late fix"), at: .seconds(20))
        #expect(try database.correctFinishedGame(game, result: try #require(game.result)) == nil)
        #expect(try database.history().isEmpty)
        #expect(try database.loadSnapshot() == game)
    }
}

import Foundation
import GRDB
import TriviaEngine

@testable import ShakyStore

/// Shared test data and helpers for the store's tests.
enum StoreFixtures {
    /// The folder of this test target.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The checked-in built-in pack files.
    static let builtinPacksFolder = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ShakyStore/BuiltinPacks")

    /// The committed databases of earlier schema versions.
    static let fixturesFolder = testsFolder.appendingPathComponent("Fixtures")

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("shaky-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A question with awkward content for round trips: quotes, commas, a line break and non-ASCII letters.
    static let awkwardQuestions: [Question] = [
        Question(
            text: "Say \"cheese\", please", answer: "Brie", alternates: ["Camembert", "Comté"], difficulty: .easy),
        Question(
            text: "A question on\ntwo lines, with a comma", answer: "Hà Nội", alternates: ["Ha Noi"],
            difficulty: .medium),
        Question(text: "  Leading spaces are trimmed", answer: "Ærø", difficulty: .hard),
        Question(text: "Semicolons; pipes are not allowed in alternates", answer: "Đà Nẵng", difficulty: .hard),
        Question(text: "Quote at the end\"", answer: "São Paulo", alternates: ["Sao Paulo"], difficulty: .easy),
    ]

    /// A database with one custom pack named `name` holding `questions`.
    static func database(
        withPack name: String = "Party", questions: [Question] = awkwardQuestions
    ) throws
        -> AppDatabase
    {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: name)
        for question in questions {
            try database.addQuestion(question, toPack: name)
        }
        return database
    }

    /// Every row of every table but GRDB's own, as text: equal dumps mean equal contents.
    static func dump(_ database: AppDatabase) throws -> String {
        try database.read { db in
            var text = ""
            for table in ["pack", "question", "gameSnapshot", "finishedGame", "finishedGameTeam"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
                    text += "\(table): \(row)\n"
                }
            }
            return text
        }
    }

    /// A game result for `standings` given as (team, points, rank), with `winners`.
    static func result(_ standings: [(String, Int, Int)], winners: [String]) -> GameResult {
        GameResult(
            standings: standings.map { GameResult.Standing(team: $0.0, points: $0.1, rank: $0.2) }, winners: winners)
    }

    /// A real game in play: two teams, the first question open, one hint taken.
    static func gameInPlay(seed: UInt64 = 7) throws -> Game {
        var game = try Game(
            setup: GameSetup(teams: ["Owls", "Foxes"], questionPool: awkwardQuestions, questionCount: 3, seed: seed))
        _ = try game.handle(.nextQuestion, at: .seconds(1))
        _ = try game.handle(.hint(source: .shake), at: .seconds(4))
        return game
    }
}

import GRDB
import Logging
import ShakyDaemon
import ShakyTesting
import Testing
import TriviaEngine

@testable import ShakyStore

/// `New` with `replace` ends the game in play and starts another: both are saved together, or neither is.
@Suite struct ReplacingGameTests {
    /// A runtime over a database with one small pack, with an Owls and Foxes game at its first question.
    static func runtimeInPlay() async throws -> (GameRuntime, AppDatabase) {
        let database = try EarlyPressRuleTests.database()
        let runtime = EarlyPressRuleTests.runtime(database: database)
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        _ = try await runtime.makeMove(.nextQuestion)
        return (runtime, database)
    }

    @Test("A disk that refuses the new game leaves the old one in play and out of the history")
    func aRefusedSaveChangesNothing() async throws {
        let (runtime, database) = try await Self.runtimeInPlay()
        // The disk refuses the new game's save only (its teams are Bears and Wolves), as a disk filling up just then.
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuseBears BEFORE UPDATE ON gameSnapshot WHEN NEW.game LIKE '%Bears%'
                    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
        }
        let replacement = NewGameRequest(teams: ["Bears", "Wolves"], questionCount: 2, seed: 2, replace: true)
        let error = await #expect(throws: RuntimeError.self) { try await runtime.newGame(replacement) }
        guard case .storageFailed(let message)? = error else {
            Issue.record("expected StorageFailed, got \(String(describing: error))")
            return
        }
        #expect(message.contains("disk is full"), "\(message)")
        let status = try await runtime.status()
        #expect(status.teams.map(\.name) == ["Owls", "Foxes"])
        #expect(status.phase != .gameOver, "the game in play goes on: nothing changed, as the error says")
        #expect(try database.history().isEmpty, "the old game is not recorded as replaced")
        #expect(try database.loadSnapshot()?.teams.map(\.name) == ["Owls", "Foxes"])

        try await database.writer.write { db in try db.execute(sql: "DROP TRIGGER refuseBears") }
        let started = try await runtime.newGame(replacement)
        #expect(started.teams.map(\.name) == ["Bears", "Wolves"])
        let history = try database.history()
        #expect(history.map(\.kind) == [.replaced])
        #expect(history.first?.teams.map(\.name) == ["Owls", "Foxes"])
        #expect(try database.loadSnapshot()?.teams.map(\.name) == ["Bears", "Wolves"])
    }
}

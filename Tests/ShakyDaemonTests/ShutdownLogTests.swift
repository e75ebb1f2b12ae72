import Foundation
import GRDB
import Logging
import ShakyDaemon
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

@testable import ShakyStore

/// The log tells the truth about saving: no "saving works again" when nothing was written, and no "the game is
/// saved" when the last save failed.
@Suite("Shutdown log")
struct ShutdownLogTests {
    @Test("With saves failing, shutdown reports the failure and never that saving works")
    func failingSaveIsReportedTruthfully() async throws {
        let database = try AppDatabase.inMemory(builtinPacks: .skip)
        let pack = try database.createPack(named: "Party")
        for answer in ["Owl", "Zebra"] {
            _ = try database.addQuestion(
                Question(text: "Which animal is \(answer)?", answer: answer, difficulty: .easy), toPack: pack.name)
        }
        let recorder = LogRecorder()
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test") { _ in recorder })
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], packs: ["Party"], questionCount: 2))
        _ = try await runtime.makeMove(.nextQuestion)
        // From now on SQLite refuses to write a snapshot, as it does on a full disk.
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER failSnapshotUpdate BEFORE UPDATE ON gameSnapshot
                    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
                    CREATE TEMP TRIGGER failSnapshotInsert BEFORE INSERT ON gameSnapshot
                    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
                    """)
        }
        // A client's change is refused; a shake's hint goes on in memory, unsaved.
        let refused = await #expect(throws: RuntimeError.self) { try await runtime.makeMove(.skipQuestion) }
        guard case .storageFailed = refused else {
            Issue.record("expected storageFailed, got \(String(describing: refused))")
            return
        }
        await runtime.shake()
        #expect(await runtime.shutDown() == false)
        let messages = recorder.messages.withLock { $0 }
        #expect(messages.contains("cannot save the game; it goes on in memory"), "\(messages)")
        #expect(!messages.contains("saving works again"), "\(messages)")
        #expect(messages.contains("cannot save the game on the way out"), "\(messages)")
    }
}

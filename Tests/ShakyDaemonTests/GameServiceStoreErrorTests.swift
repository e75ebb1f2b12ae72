import GRDB
import Logging
import ShakyProtocol
import ShakyTesting
import Testing

@testable import ShakyDaemon
@testable import ShakyStore

/// The Game interface's store calls (history, leaderboard, deleting a finished game) answer with the Game
/// interface's own errors, the ones `io.shakywords.Game.varlink` declares for them.
@Suite("Game service store errors")
struct GameServiceStoreErrorTests {
    /// A service over an empty in-memory store, with nothing else behind it.
    static func service() throws -> GameService {
        let database = try AppDatabase.inMemory(builtinPacks: .skip)
        let logger = Logger(label: "test")
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(), logger: logger)
        return GameService(runtime: runtime, database: database, watchers: WatcherHub(logger: logger))
    }

    @Test("A finished game that is not there is GameNotFound")
    func missingGameIsGameNotFound() async throws {
        let service = try Self.service()
        let error = await #expect(throws: ShakyAPI.GameInterface.ReplyError.self) {
            try await service.deleteHistory(id: 42)
        }
        #expect(error == .gameNotFound(id: 42))
    }

    @Test("A store that fails makes history, leaderboard and deletion StorageFailed of the Game interface")
    func failingStoreIsGameStorageFailed() async throws {
        let service = try Self.service()
        #expect(try await service.history(limit: nil).isEmpty)
        // What reads and deletes the history is gone, as in a damaged file.
        try await service.database.writer.write { db in
            try db.execute(sql: "DROP TABLE finishedGameTeam; DROP TABLE finishedGame")
        }
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("history", { _ = try await service.history(limit: nil) }),
            ("leaderboard", { _ = try await service.leaderboard(limit: 5) }),
            ("deleteHistory", { try await service.deleteHistory(id: 1) }),
        ]
        for (name, call) in calls {
            let error = await #expect(throws: ShakyAPI.GameInterface.ReplyError.self, "\(name)") { try await call() }
            guard case .storageFailed(let message)? = error else {
                Issue.record("\(name): expected StorageFailed, got \(String(describing: error))")
                continue
            }
            #expect(message.contains("finishedGame"), "\(name): \(message)")
        }
    }
}

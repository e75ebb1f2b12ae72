import Dispatch
import Foundation
import GRDB
import Logging
import ShakyCore
import ShakyTesting
import Testing
import TriviaEngine

@testable import ShakyDaemon
@testable import ShakyStore

/// The runtime runs, and saves synchronously, on a thread of its own, so a slow store cannot hold a thread of the
/// shared cooperative pool.
@Suite struct GameRuntimeExecutorTests {
    static func runtime(database: AppDatabase) throws -> GameRuntime {
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        return GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
    }

    @Test("Every call on the runtime runs on its own thread, not on a thread of the cooperative pool")
    func callsRunOnTheRuntimeThread() async throws {
        let runtime = try Self.runtime(database: try AppDatabase.inMemory())
        #expect(!runtime.inbox.isCurrent, "the test itself runs on the pool")
        #expect(await runtime.withCurrentState { _ in runtime.inbox.isCurrent })
    }

    @Test("A task that prefers the runtime's task executor runs on its thread, and reaches the runtime there")
    func aTaskPreferringTheInboxRunsOnItsThread() async throws {
        let runtime = try Self.runtime(database: try AppDatabase.inMemory())
        let onInbox = await Task(executorPreference: runtime.inboxTaskExecutor) {
            let before = runtime.inbox.isCurrent
            let inside = await runtime.withCurrentState { _ in runtime.inbox.isCurrent }
            return [before, inside, runtime.inbox.isCurrent]
        }.value
        #expect(onInbox == [true, true, true])
    }

    @Test("The settings and the buttons' service run on the runtime's thread, so their saves never hold up the loop")
    func settingsAndButtonsShareTheRuntimeThread() async throws {
        let database = try AppDatabase.inMemory()
        let runtime = try Self.runtime(database: database)
        let settings = try PreferencesController(
            database: database, sound: RecordingSoundPlayer(), sharingExecutorWith: runtime
        ) { _ in }
        let buzzers = BuzzerService(runtime: runtime, database: database, logger: Logger(label: "test"))
        #expect(await settings.runsOnThread(of: runtime.inbox))
        #expect(await buzzers.runsOnThread(of: runtime.inbox))
        // A change saves (and waits for the disk) there, and takes effect.
        #expect(try await settings.change(volume: 0.25).volume == 0.25)
        #expect(try database.preferences().volume == 0.25)
    }

    @Test("A save held up by a slow store finishes once the store answers; calls keep to the runtime's thread")
    func blockedSaveWaitsOnTheRuntimeQueue() async throws {
        let database = try AppDatabase.inMemory()
        let runtime = try Self.runtime(database: database)
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        // The database's one connection, taken on a thread of the test's own until the gate opens: a stalled card.
        let writer = try database.writer
        let holder = Thread {
            writer.writeWithoutTransaction { _ in
                holding.signal()
                gate.wait()
            }
        }
        holder.start()
        await withCheckedContinuation { continuation in
            Thread {
                holding.wait()
                continuation.resume()
            }.start()
        }
        let save = Task {
            try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        }
        // Another call on the runtime runs on the same thread (before or after the save, as the two arrive).
        let next = Task { await runtime.withCurrentState { _ in runtime.inbox.isCurrent } }
        // The pool goes on meanwhile: this test's own task runs while the save is held.
        await Task.yield()
        gate.signal()
        let status = try await save.value
        #expect(status.teams.map(\.name) == ["Owls", "Foxes"])
        #expect(await next.value)
    }
}

extension PreferencesController {
    /// Whether this actor's code runs on `inbox`'s thread.
    func runsOnThread(of inbox: InboxThread) -> Bool { inbox.isCurrent }
}

extension BuzzerService {
    /// Whether this actor's code runs on `inbox`'s thread.
    func runsOnThread(of inbox: InboxThread) -> Bool { inbox.isCurrent }
}

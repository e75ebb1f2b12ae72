import Logging
import ShakyCore
import ShakyDaemon
import ShakyStore
import ShakyTesting
import Testing
import TriviaEngine

/// The questions a new game draws from when no pack is named.
@Suite struct NewGamePoolTests {
    @Test("Every pack but the demo's: `shaky demo`'s pack repeats questions of the others")
    func everyPackButTheDemos() async throws {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        try database.createPack(named: DemoPack.name)
        try database.addQuestion(
            Question(text: "Which ocean is the largest?", answer: "Pacific", difficulty: .easy), toPack: DemoPack.name)
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test"))
        await #expect(throws: RuntimeError.self) {
            _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 3, seed: 1))
        }
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 1))
        // Named, the demo's pack is played.
        _ = try await runtime.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], packs: [DemoPack.name], questionCount: 1, seed: 1, replace: true))
    }
}

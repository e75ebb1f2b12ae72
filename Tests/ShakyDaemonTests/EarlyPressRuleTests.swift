import Logging
import ShakyDaemon
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Testing
import TriviaEngine

/// The early-press lock-out is a rule of each game: set in `New` (or taken from the daemon's default when `New`
/// does not say), kept with the game across a restart.
@Suite struct EarlyPressRuleTests {
    static func runtime(database: AppDatabase, clock: ManualClock = ManualClock()) -> GameRuntime {
        GameRuntime(
            database: database, clock: RuntimeClock(clock), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    static func database() throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        return database
    }

    /// What becomes of an Owls press before the first question opens.
    static func earlyPress(on runtime: GameRuntime) async -> PressOutcome? {
        await runtime.buttonPresses([(team: "Owls", age: .zero, kernelTime: .seconds(1))]).first
    }

    @Test func newSetsTheRuleForItsGameAndTheDaemonsDefaultFillsIn() async throws {
        let runtime = Self.runtime(database: try Self.database())
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1))
        #expect(await Self.earlyPress(on: runtime) == .early, "off by default")

        _ = try await runtime.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, earlyPressLockout: .seconds(3), replace: true))
        #expect(await Self.earlyPress(on: runtime) == .lockedOut(until: .seconds(3)))

        await runtime.setDefaultEarlyPressLockout(.seconds(2))
        #expect(await Self.earlyPress(on: runtime) == .lockedOut(until: .seconds(3)), "the game in play keeps its rule")
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, replace: true))
        #expect(await Self.earlyPress(on: runtime) == .lockedOut(until: .seconds(2)), "the daemon's default")
        _ = try await runtime.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, earlyPressLockout: .zero, replace: true))
        #expect(await Self.earlyPress(on: runtime) == .early, "zero in New turns the default off")
    }

    @Test func theRuleIsKeptWithTheGameAcrossARestart() async throws {
        let database = try Self.database()
        let first = Self.runtime(database: database)
        _ = try await first.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, earlyPressLockout: .milliseconds(1500)))
        #expect(await first.shutDown() == true)
        let second = Self.runtime(database: database)
        try await second.restore()
        #expect(await Self.earlyPress(on: second) == .lockedOut(until: .milliseconds(1500)))
        #expect(try database.loadSnapshot()?.settings.earlyPressLockout == .milliseconds(1500))
    }

    @Test(arguments: [-1.0, 61])
    func newRefusesALockoutOutOfRange(_ seconds: Double) async throws {
        try await TestDaemon.run(.inProcess) { client in
            try await PartyPack.create(on: client)
            let error = try await client.callError(
                "io.shakywords.Game.New",
                PartyPack.newGame(teams: ["Owls", "Foxes"], rules: ["earlyPressLockout": .double(seconds)]))
            #expect(error.name == "io.shakywords.Game.InvalidSetup")
            #expect(
                error.parameters["message"]?.stringValue?.contains("earlyPressLockout") == true,
                "\(error.parameters)")
        }
    }
}

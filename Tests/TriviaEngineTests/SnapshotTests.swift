import Foundation
import Testing
import TriviaEngine

@Suite("Snapshots")
struct SnapshotTests {
    private func roundTrip(_ game: Game) throws -> Game {
        try JSONDecoder().decode(Game.self, from: JSONEncoder().encode(game))
    }

    @Test func everyPhaseRoundTripsThroughJSON() throws {
        var game = try EngineFixtures.game(answers: ["Hà Nội", "Ærø"])
        #expect(try roundTrip(game) == game)
        _ = try game.handle(.nextQuestion, at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(2))
        #expect(try roundTrip(game) == game)
        _ = try game.handle(.buzz(team: "Owls"), at: ms(3_250))
        _ = try game.handle(.pause, at: sec(4))
        #expect(try roundTrip(game) == game)
        _ = try game.handle(.resume, at: sec(9))
        _ = try game.handle(.clockAdvanced, at: sec(40))
        #expect(game.phase == .answering(team: "Owls"))
        #expect(try roundTrip(game) == game)
        _ = try game.handle(.endGame, at: sec(41))
        #expect(try roundTrip(game) == game)
    }

    @Test func restoredGameContinuesTheSameRandomSequence() throws {
        var game = try EngineFixtures.game(answers: ["Copenhagen", "Mississippi", "Đà Nẵng"], seed: 99)
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.skipQuestion, at: sec(1))
        var restored = try roundTrip(game)
        var now = sec(2)
        for event: GameEvent in [
            .nextQuestion, .hint(source: .shake), .hint(source: .shake), .skipQuestion, .nextQuestion,
        ] {
            now += sec(2)
            let original = try game.handle(event, at: now)
            let copy = try restored.handle(event, at: now)
            #expect(original == copy)
        }
        #expect(restored == game)
    }

    @Test func actionsAndStatusEncodeForWatchers() throws {
        var game = try EngineFixtures.game()
        let actions = try game.handle(.nextQuestion, at: .zero)
        let decoded = try JSONDecoder().decode([GameAction].self, from: JSONEncoder().encode(actions))
        #expect(decoded == actions)
        let status = game.status(at: sec(3))
        #expect(try JSONDecoder().decode(GameStatus.self, from: JSONEncoder().encode(status)) == status)
        #expect(actions.contains { $0.isSnapshotWorthy })
        #expect(!GameAction.tick(phase: .indication, remaining: sec(3)).isSnapshotWorthy)
    }
}

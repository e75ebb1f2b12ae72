import Testing
import TriviaEngine

@Suite("Hints")
struct HintTests {
    @Test func eachHintFixesTheNextLetterAndLowersThePoints() throws {
        var game = try EngineFixtures.openGame(answer: "Copenhagen")
        #expect(game.round?.points == 10)
        var expectedPoints = [8, 6, 4]
        for (step, time) in [sec(1), sec(3), sec(5)].enumerated() {
            let actions = try game.handle(.hint(source: .shake), at: time)
            let round = try #require(game.round)
            let points = expectedPoints.removeFirst()
            #expect(
                actions.withoutTimekeeping.first
                    == .hintRevealed(
                        display: round.scramble.display, points: points, hintsUsed: step + 1, source: .shake))
            #expect(round.points == points)
            let fixed = round.scramble.display.tiles.filter(\.isFixed).map(\.text)
            #expect(fixed == Array("COPENHAGEN".prefix(step + 1)).map(String.init))
            #expect(!round.scramble.showsAnswer)
        }
        expectRefused(game, .hint(source: .manual), at: sec(9), .hintLimitReached(maximum: 3))
        #expect(game.hintsLeft == 0)
    }

    @Test func pointsNeverFallBelowTheFloor() throws {
        let settings = GameRules(pointsPerHint: 4, minimumPoints: 3, maximumHints: 5)
        var game = try EngineFixtures.openGame(answer: "Copenhagen", settings: settings)
        var points: [Int] = []
        for step in 1...5 {
            _ = try game.handle(.hint(source: .manual), at: sec(step * 2))
            points.append(try #require(game.round).points)
        }
        #expect(points == [6, 3, 3, 3, 3])
    }

    @Test func cooldownRefusesAndSpendsNoHint() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.hint(source: .shake), at: sec(10))
        expectRefused(game, .hint(source: .shake), at: ms(10_100), .hintCoolingDown(remaining: ms(1400)))
        expectRefused(game, .hint(source: .shake), at: ms(11_499), .hintCoolingDown(remaining: ms(1)))
        #expect(game.round?.hintsUsed == 1)
        _ = try game.handle(.hint(source: .shake), at: ms(11_500))
        #expect(game.round?.hintsUsed == 2)
    }

    @Test func cooldownDoesNotRunWhilePaused() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.hint(source: .shake), at: sec(10))
        _ = try game.handle(.pause, at: ms(10_500))
        _ = try game.handle(.resume, at: sec(100))
        expectRefused(game, .hint(source: .shake), at: ms(100_900), .hintCoolingDown(remaining: ms(100)))
        _ = try game.handle(.hint(source: .shake), at: sec(101))
        #expect(game.round?.hintsUsed == 2)
    }

    @Test func hintsStopBeforeTheAnswerIsPlainToSee() throws {
        let settings = GameRules(maximumHints: 10)
        var game = try EngineFixtures.openGame(answer: "Oslo", settings: settings)
        _ = try game.handle(.hint(source: .manual), at: sec(2))
        _ = try game.handle(.hint(source: .manual), at: sec(4))
        #expect(game.hintsLeft == 0)
        expectRefused(game, .hint(source: .manual), at: sec(6), .hintWouldRevealAnswer)
        let scramble = try #require(game.round).scramble
        #expect(scramble.shown == ["O", "S", "O", "L"])
    }

    @Test func hintsOnlyWhileTheQuestionIsOpen() throws {
        let ready = try EngineFixtures.game()
        expectRefused(ready, .hint(source: .shake), at: sec(1), .roundNotOpen(phase: .ready))
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"])
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        expectRefused(game, .hint(source: .shake), at: sec(3), .roundNotOpen(phase: .answering(team: "Owls")))
        _ = try game.handle(.skipQuestion, at: sec(4))
        expectRefused(game, .hint(source: .shake), at: sec(5), .roundNotOpen(phase: .roundOver))
        var paused = try EngineFixtures.openGame()
        _ = try paused.handle(.pause, at: sec(1))
        expectRefused(paused, .hint(source: .shake), at: sec(2), .gamePaused)
    }

    @Test func winnerIsCreditedWithTheHintsOfItsQuestion() throws {
        var game = try EngineFixtures.openGame(answer: "Copenhagen")
        _ = try game.handle(.hint(source: .shake), at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(3))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.clockAdvanced, at: sec(24))
        let actions = try game.handle(.answer(team: "Foxes", text: "copenhagen"), at: sec(30))
        #expect(actions.contains(.judged(team: "Foxes", given: "copenhagen", correct: true, pointsAwarded: 6)))
        #expect(game.team(named: "foxes")?.score == 6)
        #expect(game.team(named: "Foxes")?.hintsUsed == 2)
    }
}

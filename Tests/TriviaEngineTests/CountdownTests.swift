import Foundation
import Testing
import TriviaEngine

@Suite("Countdown, ticks, pause and restore")
struct CountdownTests {
    @Test func openingAQuestionAsksForAWakeUpEachSecond() throws {
        var game = try EngineFixtures.game()
        let actions = try game.handle(.nextQuestion, at: sec(100))
        let round = try #require(game.round)
        #expect(
            actions == [
                .phaseChanged(.indication),
                .roundStarted(
                    number: 1, total: 1, question: "Question 1?", display: round.scramble.display, points: 10,
                    indicationTime: sec(60)),
                .wake(after: sec(1)),
            ])
        #expect(
            try game.handle(.clockAdvanced, at: sec(101)) == [
                .tick(phase: .indication, remaining: sec(59)), .wake(after: sec(1)),
            ])
        #expect(try game.handle(.clockAdvanced, at: ms(101_400)) == [.wake(after: ms(600))])
        #expect(
            try game.handle(.clockAdvanced, at: sec(102)) == [
                .tick(phase: .indication, remaining: sec(58)), .wake(after: sec(1)),
            ])
    }

    @Test func ticksCountDownEverySecondToTheDeadline() throws {
        var game = try EngineFixtures.openGame()
        var ticks: [Duration] = []
        var now = Duration.zero
        while game.phase == .indication {
            let actions = try game.handle(.clockAdvanced, at: now)
            for action in actions {
                if case .tick(_, let remaining) = action { ticks.append(remaining) }
                if case .wake(let after) = action { now += after }
            }
        }
        #expect(ticks == (1...59).reversed().map { sec($0) })
        #expect(now == sec(60))
        #expect(game.phase == .roundOver)
    }

    @Test func wakeUpIsTheEarlierOfTheNextSecondAndTheDeadline() throws {
        var game = try EngineFixtures.openGame()
        let buzz = try game.handle(.buzz(team: "Owls"), at: ms(45_700))
        #expect(buzz.last == .wake(after: ms(300)))  // 14.3 s left → next whole second at 14 s
        let settings = GameRules(indicationTime: ms(500))
        var short = try EngineFixtures.game(settings: settings)
        #expect(try short.handle(.nextQuestion, at: .zero).last == .wake(after: ms(500)))
    }

    @Test func lateWakeUpCatchesUpEveryDeadlineAtItsOwnInstant() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(5))  // indication ends at 25 s
        _ = try game.handle(.buzz(team: "Bears"), at: sec(6))
        // Owls answer 25–85 s, Bears 85–145 s; the wake-up comes at 200 s.
        let actions = try game.handle(.clockAdvanced, at: sec(200))
        #expect(
            actions == [
                .phaseChanged(.answering(team: "Owls")), .teamUp(team: "Owls", answerTime: sec(60)),
                .judged(team: "Owls", given: nil, correct: false, pointsAwarded: 0),
                .phaseChanged(.answering(team: "Bears")), .teamUp(team: "Bears", answerTime: sec(60)),
                .judged(team: "Bears", given: nil, correct: false, pointsAwarded: 0),
                .answerRevealed(answer: "Copenhagen", winner: nil, end: .wrongAnswers), .phaseChanged(.roundOver),
                .cancelWake,
            ])
    }

    @Test func lateWakeUpInsideAPhaseKeepsItsExactTimeLeft() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(5))
        let actions = try game.handle(.clockAdvanced, at: ms(27_500))  // 2.5 s into Owls' turn
        #expect(actions.contains(.tick(phase: .answering(team: "Owls"), remaining: ms(57_500))))
        #expect(actions.last == .wake(after: ms(500)))
        #expect(game.remainingTime(at: ms(27_500)) == ms(57_500))
    }

    @Test func pauseFreezesTheTimeLeftExactly() throws {
        var game = try EngineFixtures.openGame()
        #expect(
            try game.handle(.pause, at: ms(12_300)) == [
                .tick(phase: .indication, remaining: ms(47_700)), .paused, .cancelWake,
            ])
        #expect(game.isPaused)
        #expect(game.remainingTime(at: sec(500)) == ms(47_700))
        #expect(try game.handle(.clockAdvanced, at: sec(400)) == [])
        #expect(try game.handle(.resume, at: sec(1000)) == [.resumed, .wake(after: ms(700))])
        #expect(game.remainingTime(at: sec(1000)) == ms(47_700))
        _ = try game.handle(.clockAdvanced, at: ms(1_047_699))
        #expect(game.phase == .indication)
        _ = try game.handle(.clockAdvanced, at: ms(1_047_700))
        #expect(game.phase == .roundOver)
    }

    @Test func buzzTimesExcludePauses() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.pause, at: sec(5))
        _ = try game.handle(.resume, at: sec(50))
        let actions = try game.handle(.buzz(team: "Owls"), at: sec(52))
        #expect(
            actions.withoutTimekeeping.first
                == .buzzed(team: "Owls", order: 1, elapsed: sec(7), indicationRemaining: sec(20)))
    }

    @Test func pausingTheAnswerTurnFreezesItToo() throws {
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"])
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.pause, at: sec(32))
        expectRefused(game, .answer(team: "Owls", text: "x"), at: sec(40), .gamePaused)
        _ = try game.handle(.resume, at: sec(300))
        #expect(game.remainingTime(at: sec(300)) == sec(30))
        _ = try game.handle(.clockAdvanced, at: sec(330))
        #expect(game.teamUp == "Foxes")
    }

    @Test func restoredSnapshotResumesPausedWithTheTimeItHadLeft() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: ms(12_300))
        _ = try game.handle(.clockAdvanced, at: sec(15))
        let saved = try JSONEncoder().encode(game)
        var restored = try JSONDecoder().decode(Game.self, from: saved)
        #expect(restored == game)
        // The new process's clock starts near zero.
        #expect(restored.restore(at: sec(2)) == [.paused])
        #expect(restored.isPaused)
        #expect(restored.remainingTime(at: sec(9)) == ms(17_300))
        #expect(try restored.handle(.resume, at: sec(10)) == [.resumed, .wake(after: ms(300))])
        _ = try restored.handle(.clockAdvanced, at: ms(27_300))
        #expect(restored.phase == .answering(team: "Owls"))
    }

    @Test func restoringAGameWithoutACountdownOnlyRebasesTime() throws {
        var game = try EngineFixtures.game()
        #expect(game.restore(at: sec(5)) == [])
        #expect(!game.isPaused)
        _ = try game.handle(.nextQuestion, at: sec(6))
        #expect(game.remainingTime(at: sec(16)) == sec(50))
    }

    @Test func clockGoingBackwardsCountsAsNoTime() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.clockAdvanced, at: sec(10))
        _ = try game.handle(.clockAdvanced, at: sec(4))
        #expect(game.remainingTime(at: sec(4)) == sec(50))
        _ = try game.handle(.clockAdvanced, at: sec(5))
        #expect(game.remainingTime(at: sec(5)) == sec(49))
    }
}

import Foundation
import Testing
import TriviaEngine

/// Once the game is over, the host may still overrule the last judgement and adjust scores: the result follows,
/// the game stays over.
@Suite("Corrections after the game is over")
struct CorrectionAfterGameOverTests {
    /// What Foxes do on the second question.
    enum FoxesTurn {
        case right
        case wrong(String)
        case outOfTime
    }

    /// A game of two questions between Owls and Foxes: Owls answer the first right (10 points), Foxes buzz on the
    /// second and take `foxes`; then the host ends the game with Next.
    static func finishedGame(_ foxes: FoxesTurn) throws -> Game {
        var game = try EngineFixtures.game(teams: ["Owls", "Foxes"], answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: game.round?.question.answer ?? ""), at: sec(22))
        _ = try game.handle(.nextQuestion, at: sec(30))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(31))
        _ = try game.handle(.clockAdvanced, at: sec(51))
        #expect(game.teamUp == "Foxes")
        switch foxes {
        case .right: _ = try game.handle(.answer(team: "Foxes", text: game.round?.question.answer ?? ""), at: sec(52))
        case .wrong(let text): _ = try game.handle(.answer(team: "Foxes", text: text), at: sec(52))
        case .outOfTime: _ = try game.handle(.clockAdvanced, at: sec(111))
        }
        #expect(game.phase == .roundOver)
        _ = try game.handle(.nextQuestion, at: sec(120))
        #expect(game.phase == .gameOver)
        return game
    }

    @Test("A wrong answer overruled after the end scores, and the result follows: a tie, broken by an adjustment")
    func wrongToRightCreatesATieThatAnAdjustmentBreaks() throws {
        var game = try Self.finishedGame(.wrong("Lyon"))
        #expect(game.result?.winners == ["Owls"])
        let actions = try game.handle(.overrule, at: sec(130))
        let tied = try #require(game.result)
        #expect(
            actions == [
                .judgementOverruled(team: "Foxes", given: "Lyon", correct: true, pointsDelta: 10, newScore: 10),
                .resultCorrected(tied),
            ])
        #expect(game.phase == .gameOver)
        #expect(tied.winners == ["Owls", "Foxes"])
        #expect(tied.standings.map(\.rank) == [1, 1])
        #expect(tied.standings.first { $0.team == "Foxes" }?.correctAnswers == 1)
        #expect(tied.questionsPlayed == 2 && tied.questionCount == 2 && !tied.endedEarly)
        #expect(game.round?.winner == "Foxes")
        #expect(game.status(at: sec(130)).roundWinner == "Foxes")

        let adjusted = try game.handle(.adjustScore(team: "foxes", delta: 1, reason: "bonus round"), at: sec(140))
        let broken = try #require(game.result)
        #expect(
            adjusted == [
                .scoreAdjusted(team: "Foxes", delta: 1, reason: "bonus round", newScore: 11), .resultCorrected(broken),
            ])
        #expect(broken.winners == ["Foxes"])
        #expect(broken.standings.map(\.team) == ["Foxes", "Owls"])
        #expect(broken.standings.map(\.rank) == [1, 2])
        #expect(broken.standings.first?.adjustments == [ScoreAdjustment(delta: 1, reason: "bonus round", question: 2)])
        #expect(game.phase == .gameOver)
        #expect(game.status(at: sec(140)).result == broken)
    }

    @Test("A right answer overruled after the end takes its points back; no turn passes, and it can be undone")
    func rightToWrongTakesThePointsBackAndPlayDoesNotGoOn() throws {
        var game = try Self.finishedGame(.right)
        let answer = try #require(game.round?.question.answer)
        // Both answered right: 10 each, a tie.
        #expect(game.result?.winners == ["Owls", "Foxes"])
        let actions = try game.handle(.overrule, at: sec(130))
        let result = try #require(game.result)
        #expect(
            actions == [
                .judgementOverruled(team: "Foxes", given: answer, correct: false, pointsDelta: -10, newScore: 0),
                .resultCorrected(result),
            ], "no team is called up, no phase changes")
        #expect(game.phase == .gameOver)
        #expect(game.round?.winner == nil)
        #expect(result.winners == ["Owls"])
        #expect(result.standings.first { $0.team == "Foxes" }?.correctAnswers == 0)

        _ = try game.handle(.overrule, at: sec(131))
        #expect(game.result?.winners == ["Owls", "Foxes"], "overruling again gives the points back")
        #expect(game.team(named: "Foxes")?.score == 10)
        #expect(game.phase == .gameOver)
    }

    @Test("An overrule after the end keeps the time-out it reverses: no answer was given")
    func aTimeOutOverruledAfterTheEndSaysSo() throws {
        var game = try Self.finishedGame(.outOfTime)
        #expect(game.round?.lastJudgement?.given == nil)
        let actions = try game.handle(.overrule, at: sec(130))
        #expect(
            actions.first
                == .judgementOverruled(team: "Foxes", given: nil, correct: true, pointsDelta: 10, newScore: 10))
        #expect(game.result?.winners == ["Owls", "Foxes"])
    }

    @Test("After the end an adjustment keeps the rules it has during play; play itself stays refused")
    func adjustmentsKeepTheirRulesAndPlayStaysRefused() throws {
        let game = try Self.finishedGame(.wrong("Lyon"))
        expectRefused(game, .adjustScore(team: "Owls", delta: 0, reason: "x"), at: sec(130), .zeroAdjustment)
        expectRefused(game, .adjustScore(team: "Owls", delta: 2, reason: " "), at: sec(130), .missingReason)
        expectRefused(game, .adjustScore(team: "Bats", delta: 2, reason: "x"), at: sec(130), .unknownTeam("Bats"))
        expectRefused(
            game, .adjustScore(team: "Owls", delta: 1001, reason: "x"), at: sec(130), .adjustmentTooLarge(1001))
        for event: GameEvent in [
            .nextQuestion, .skipQuestion, .endGame, .pause, .resume, .hint(source: .manual), .buzz(team: "Owls"),
            .answer(team: "Foxes", text: "Lyon"), .undoBuzz(team: "Foxes"),
        ] {
            expectRefused(game, event, at: sec(130), .gameIsOver)
        }
    }

    @Test("A game ended before any judgement has nothing to overrule, but takes an adjustment")
    func nothingToOverruleWithoutAJudgement() throws {
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"])
        _ = try game.handle(.endGame, at: sec(5))
        expectRefused(game, .overrule, at: sec(6), .nothingToOverrule)
        #expect(game.result?.winners == [])
        _ = try game.handle(.adjustScore(team: "Owls", delta: 3, reason: "spirit"), at: sec(7))
        #expect(game.result?.winners == ["Owls"])
        #expect(game.result?.endedEarly == true)
    }

    @Test("A corrected game over survives a snapshot and still takes corrections")
    func aCorrectedGameRoundTrips() throws {
        var game = try Self.finishedGame(.wrong("Lyon"))
        _ = try game.handle(.overrule, at: sec(130))
        var restored = try JSONDecoder().decode(Game.self, from: JSONEncoder().encode(game))
        #expect(restored == game)
        #expect(restored.inconsistency == nil)
        _ = restored.restore(at: sec(5))
        _ = try restored.handle(.overrule, at: sec(6))
        #expect(restored.result?.winners == ["Owls"])
    }
}

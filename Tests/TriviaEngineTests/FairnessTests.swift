import Foundation
import Testing
import TriviaEngine

@Suite("Frozen points, classic buzzing, overrule")
struct FairnessTests {
    @Test func aTeamScoresWhatTheQuestionWasWorthWhenItBuzzed() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(2))
        _ = try game.handle(.hint(source: .shake), at: sec(4))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(5))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        let actions = try game.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(22))
        #expect(actions.contains(.judged(team: "Owls", given: "Copenhagen", correct: true, pointsAwarded: 10)))
        #expect(game.team(named: "Owls")?.score == 10)
        #expect(game.team(named: "Owls")?.hintsUsed == 0)
    }

    @Test("While a team answers, the status says what its buzz froze, not what later hints left")
    func theStatusShowsTheFrozenPointsOfTheTeamUp() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(2))
        #expect(game.status(at: sec(2)).points == 8, "buzzing still open: a later buzz is worth 8")
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(5))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        #expect(game.teamUp == "Owls")
        #expect(game.status(at: sec(21)).points == 10)
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(22))
        #expect(game.teamUp == "Foxes")
        #expect(game.status(at: sec(22)).points == 8)
    }

    @Test func aLaterBuzzerScoresTheLowerValue() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(2))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(3))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(22))
        _ = try game.handle(.answer(team: "Foxes", text: "Copenhagen"), at: sec(23))
        #expect(game.team(named: "Foxes")?.score == 8)
        #expect(game.team(named: "Foxes")?.hintsUsed == 1)
    }

    @Test func classicModeTheFirstBuzzerAnswersAtOnce() throws {
        var game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        let actions = try game.handle(.buzz(team: "Foxes"), at: sec(5))
        #expect(game.phase == .answering(team: "Foxes"))
        #expect(actions.withoutTimekeeping.contains(.teamUp(team: "Foxes", answerTime: sec(60))))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(8))
        #expect(game.phase == .indication)
        #expect(game.remainingTime(at: sec(8)) == sec(20))
        expectRefused(game, .buzz(team: "Foxes"), at: sec(9), .alreadyBuzzed(team: "Foxes"))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(10))
        #expect(game.phase == .answering(team: "Owls"))
        _ = try game.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(11))
        #expect(game.team(named: "Owls")?.score == 10)
        #expect(game.phase == .roundOver)
    }

    @Test func classicModeEndsTheQuestionWhenEveryTeamHasTried() throws {
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"], settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(1))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(2))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        let actions = try game.handle(.clockAdvanced, at: sec(63))
        #expect(actions.contains(.judged(team: "Owls", given: nil, correct: false, pointsAwarded: 0)))
        #expect(game.phase == .roundOver)
    }

    @Test func classicModeReopenedBuzzingRunsOutWithTheTimeThatWasLeft() throws {
        var game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(50))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(70))
        #expect(game.phase == .indication)
        _ = try game.handle(.clockAdvanced, at: sec(80))
        #expect(game.phase == .roundOver)
    }

    /// Overruled to right while buzzing was open again, then back to wrong: the question ended, where a single
    /// overrule to wrong reopens buzzing for the teams that have not tried.
    @Test func classicModeOverruledTwiceReopensBuzzingWithTheTimeThatWasLeft() throws {
        var game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.answer(team: "Owls", text: "Paris"), at: sec(2))
        #expect(game.phase == .indication)
        #expect(game.remainingTime(at: sec(5)) == sec(17))
        _ = try game.handle(.overrule, at: sec(5))
        #expect(game.phase == .roundOver)
        #expect(game.team(named: "Owls")?.score == 10)
        _ = try game.handle(.overrule, at: sec(8))
        #expect(game.team(named: "Owls")?.score == 0)
        #expect(game.phase == .indication)
        #expect(game.remainingTime(at: sec(8)) == sec(17), "the buzzing time left when it was overruled")
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(9))
        #expect(game.phase == .answering(team: "Foxes"))
    }

    @Test func overruleAWrongAnswerToRight() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Kobenhavn"), at: sec(22))
        #expect(game.phase == .answering(team: "Foxes"))
        let actions = try game.handle(.overrule, at: sec(23))
        #expect(
            actions.contains(
                .judgementOverruled(team: "Owls", given: "Kobenhavn", correct: true, pointsDelta: 10, newScore: 10)))
        #expect(actions.contains(.answerRevealed(answer: "Copenhagen", winner: "Owls", end: .overruled)))
        #expect(game.phase == .roundOver)
        #expect(game.team(named: "Owls")?.correctAnswers == 1)
        #expect(game.round?.winner == "Owls")
    }

    @Test func overruleARightAnswerToWrongPassesTheTurnAndBackAgain() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Copenhagn"), at: sec(22))
        #expect(game.team(named: "Owls")?.score == 10)
        let actions = try game.handle(.overrule, at: sec(23))
        #expect(
            actions.contains(
                .judgementOverruled(team: "Owls", given: "Copenhagn", correct: false, pointsDelta: -10, newScore: 0)))
        #expect(game.phase == .answering(team: "Foxes"))
        #expect(game.team(named: "Owls")?.correctAnswers == 0)
        _ = try game.handle(.overrule, at: sec(24))
        #expect(game.phase == .roundOver)
        _ = try game.handle(.overrule, at: sec(25))
        #expect(game.phase == .answering(team: "Foxes"), "overruling twice does not skip a team")
        let result = try #require(
            {
                var copy = game
                _ = try copy.handle(.endGame, at: sec(26))
                return copy.result
            }())
        #expect(result.standings.first { $0.team == "Owls" }?.points == 0)
    }

    @Test func nothingToOverruleBeforeAJudgementOrAfterTheNextQuestion() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        expectRefused(game, .overrule, at: sec(1), .nothingToOverrule)
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Paris"), at: sec(22))
        _ = try game.handle(.nextQuestion, at: sec(23))
        expectRefused(game, .overrule, at: sec(24), .nothingToOverrule)
    }

    @Test func undoABuzzTakesBackItsStatistics() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        let actions = try game.handle(.undoBuzz(team: "owls"), at: sec(5))
        #expect(actions.contains(.buzzUndone(team: "Owls")))
        #expect(game.round?.buzzes.map(\.team) == ["Foxes"])
        #expect(game.team(named: "Owls")?.buzzCount == 0)
        #expect(game.team(named: "Owls")?.totalBuzzTime == .zero)
        expectRefused(game, .undoBuzz(team: "Bears"), at: sec(6), .noBuzzToUndo(team: "Bears"))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(6))
        #expect(game.round?.buzzes.map(\.team) == ["Foxes", "Owls"])
    }

    @Test("Taking back every buzz gives back the time the first one cut; taking back one of two does not")
    func undoingEveryBuzzGivesTheTimeBack() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(2))
        #expect(game.remainingTime(at: sec(2)) == sec(20))
        _ = try game.handle(.undoBuzz(team: "Owls"), at: sec(3))
        #expect(game.remainingTime(at: sec(3)) == sec(57))
        // Again, with a second buzz: taking back the first leaves the second's cut in place.
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(5))
        _ = try game.handle(.undoBuzz(team: "Foxes"), at: sec(6))
        #expect(game.remainingTime(at: sec(6)) == sec(18))
        _ = try game.handle(.undoBuzz(team: "Owls"), at: sec(7))
        #expect(game.remainingTime(at: sec(7)) == sec(53))
        #expect(game.inconsistency == nil)
    }

    @Test func undoTheBuzzOfTheTeamUpCallsTheNextOrReopensBuzzing() throws {
        var game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        #expect(game.phase == .answering(team: "Owls"))
        _ = try game.handle(.undoBuzz(team: "Owls"), at: sec(4))
        #expect(game.phase == .indication)
        #expect(game.remainingTime(at: sec(4)) == sec(57), "no buzz is left: the time the first one cut comes back")
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(5))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(6))
        _ = try game.handle(.buzz(team: "Bears"), at: sec(7))
        expectRefused(game, .undoBuzz(team: "Foxes"), at: sec(8), .buzzAlreadyJudged(team: "Foxes"))
    }

    @Test("Buzz order: a buzz taken back after every team buzzed lets that team buzz once the others have answered")
    func buzzOrderUndoAfterEveryTeamBuzzedReopensBuzzingForThatTeam() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.buzz(team: "Bears"), at: sec(5))
        #expect(game.phase == .answering(team: "Owls"), "every team buzzed: buzzing is over")
        let left = try #require(game.round?.indicationRemaining)
        _ = try game.handle(.undoBuzz(team: "Foxes"), at: sec(6))
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(7))
        #expect(game.phase == .answering(team: "Bears"))
        let actions = try game.handle(.answer(team: "Bears", text: "Rome"), at: sec(8))
        #expect(actions.contains(.phaseChanged(.indication)), "Foxes have not buzzed: buzzing opens again")
        #expect(game.remainingTime(at: sec(8)) == left)
        expectRefused(game, .buzz(team: "Owls"), at: sec(9), .alreadyBuzzed(team: "Owls"))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(9))
        #expect(game.phase == .answering(team: "Foxes"))
        _ = try game.handle(.answer(team: "Foxes", text: "Copenhagen"), at: sec(10))
        #expect(game.round?.winner == "Foxes")
        #expect(game.inconsistency == nil)
    }

    @Test("Buzz order: once buzzing ran out of time, a buzz taken back does not open it again")
    func buzzOrderUndoAfterTimeUpEndsTheQuestionAfterTheLastTurn() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.clockAdvanced, at: sec(30))
        #expect(game.phase == .answering(team: "Owls"))
        _ = try game.handle(.undoBuzz(team: "Foxes"), at: sec(31))
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(32))
        #expect(game.phase == .roundOver)
        #expect(game.round?.end == .wrongAnswers)
    }

    @Test("Taking back a buzz once the question is over says so, not that hints and buzzes are closed")
    func undoAfterTheQuestionSaysWhenABuzzCanBeTakenBack() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        _ = try game.handle(.skipQuestion, at: sec(4))
        expectRefused(game, .undoBuzz(team: "Owls"), at: sec(5), .buzzNotUndoable(phase: .roundOver))
        let message = GameError.buzzNotUndoable(phase: .roundOver).description
        #expect(message == "a buzz can only be taken back while its question is in play (now: round over)")
    }

    @Test("In classic mode an answer before any buzz says the first team to buzz answers, not the buzz order")
    func classicModeAnAnswerBeforeAnyBuzzSaysBuzzFirst() throws {
        let game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        expectRefused(game, .answer(team: "Owls", text: "Oslo"), at: sec(3), .nobodyHasBuzzed)
        #expect(!GameError.nobodyHasBuzzed.description.contains("buzz-order"))
        #expect(GameError.nobodyHasBuzzed.description.contains("first team to buzz answers"))
    }

    @Test func aSnapshotSavedBeforeTheseRulesStillLoads() throws {
        // A game saved mid-answer by an earlier version: no buzzerMode, no frozen points, no judgement.
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.hint(source: .shake), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(game)) as? [String: Any])
        var settings = try #require(json["settings"] as? [String: Any])
        settings["buzzerMode"] = nil
        json["settings"] = settings
        var round = try #require(json["round"] as? [String: Any])
        round["indicationRemaining"] = nil
        round["lastJudgement"] = nil
        var buzzes = try #require(round["buzzes"] as? [[String: Any]])
        buzzes = buzzes.map { $0.filter { $0.key == "team" || $0.key == "elapsed" } }
        round["buzzes"] = buzzes
        json["round"] = round
        var old = try JSONDecoder().decode(Game.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.settings.buzzerMode == .buzzOrder)
        #expect(old.round?.buzzes.first?.points == nil)
        _ = try old.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(22))
        #expect(old.team(named: "Owls")?.score == 8, "an old buzz without frozen points scores the current value")
    }

    @Test func messagesRoundTimesForPeopleAndNamePhasesInPartyWords() {
        #expect(
            GameError.hintCoolingDown(remaining: .nanoseconds(992_309_334)).description
                == "the last hint was too recent; wait 1.0 s")
        #expect(
            GameRulesError.durationTooLong(setting: "answerTime", value: .milliseconds(99_999_999)).description
                == "setting answerTime must be at most 3600 s, not 99999.999 s")
        // Refused durations are said as given, to the millisecond the wire reads them to, never rounded up.
        #expect(
            GameRulesError.durationTooLong(setting: "answerTime", value: .milliseconds(3_600_040)).description
                == "setting answerTime must be at most 3600 s, not 3600.04 s")
        #expect(
            GameRulesError.durationNegative(setting: "hintCooldown", value: .milliseconds(-1)).description
                == "setting hintCooldown must not be negative, not -0.001 s")
        #expect(
            GameRulesError.durationNotPositive(setting: "answerTime", value: .zero).description
                == "setting answerTime must be longer than zero (times are read to the millisecond), not 0 s")
        #expect(GameError.roundNotOpen(phase: .answering(team: "Foxes")).description.contains("Foxes to answer"))
        #expect(!GameError.noAnswerExpected(phase: .roundOver).description.contains("roundOver"))
    }
}

import Foundation
import Testing
import TriviaEngine

/// Every way a question ends is kept on its round and said with its answer, so the room is told "skipped" when the
/// host skipped, not "time's up".
@Suite("How a question ended")
struct RoundEndTests {
    /// The `answerRevealed` among `actions`: its winner and how the question ended.
    private func revealed(_ actions: [GameAction]) -> (winner: String?, end: RoundEnd)? {
        for action in actions {
            if case .answerRevealed(_, let winner, let end) = action { return (winner, end) }
        }
        return nil
    }

    /// Checks that the round, the status and the action all say the question ended as `end`, won by `winner`.
    private func expectEnded(
        _ game: Game, _ actions: [GameAction], as end: RoundEnd, winner: String? = nil, at now: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(game.round?.end == end, sourceLocation: sourceLocation)
        #expect(game.round?.winner == winner, sourceLocation: sourceLocation)
        #expect(game.status(at: now).roundEnd == end, sourceLocation: sourceLocation)
        #expect(revealed(actions)?.end == end, sourceLocation: sourceLocation)
        #expect(revealed(actions)?.winner == winner, sourceLocation: sourceLocation)
    }

    /// A game whose first question Owls answered wrong at 22 s, with Foxes, who buzzed after them, up to answer.
    private func owlsWrongWithFoxesUp(answers: [String] = ["Copenhagen"]) throws -> Game {
        var game = try EngineFixtures.game(answers: answers)
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Kobenhavn"), at: sec(22))
        return game
    }

    @Test func aRightAnswerEndsItAnswered() throws {
        var game = try EngineFixtures.openGame()
        #expect(game.round?.end == nil && game.status(at: sec(1)).roundEnd == nil, "a question in play has not ended")
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        let actions = try game.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(22))
        expectEnded(game, actions, as: .answered, winner: "Owls", at: sec(22))
    }

    @Test func theTimeRunningOutWithNoBuzzEndsItTimeUp() throws {
        var game = try EngineFixtures.openGame()
        let actions = try game.handle(.clockAdvanced, at: sec(60))
        expectEnded(game, actions, as: .timeUp, at: sec(60))
    }

    @Test func reopenedBuzzingRunningOutEndsItTimeUp() throws {
        var game = try EngineFixtures.openGame(settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(50))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(55))
        #expect(game.phase == .indication && game.round?.end == nil)
        let actions = try game.handle(.clockAdvanced, at: sec(70))
        expectEnded(game, actions, as: .timeUp, at: sec(70))
    }

    @Test func everyTeamThatBuzzedWrongEndsItWithWrongAnswers() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(22))
        // The last team's time to answer runs out: a wrong answer too, not the time to buzz.
        let actions = try game.handle(.clockAdvanced, at: sec(82))
        expectEnded(game, actions, as: .wrongAnswers, at: sec(82))
    }

    @Test func classicBuzzingWithEveryTeamWrongEndsItWithWrongAnswers() throws {
        var game = try EngineFixtures.openGame(teams: ["Owls", "Foxes"], settings: GameRules(buzzerMode: .classic))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(1))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(2))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        let actions = try game.handle(.answer(team: "Owls", text: "Stockholm"), at: sec(4))
        expectEnded(game, actions, as: .wrongAnswers, at: sec(4))
    }

    @Test("A skip with nobody buzzed ends it skipped, not time's up")
    func aSkipWithNoBuzzEndsItSkipped() throws {
        var game = try EngineFixtures.openGame()
        let actions = try game.handle(.skipQuestion, at: sec(5))
        expectEnded(game, actions, as: .skipped, at: sec(5))
    }

    @Test func aSkipWhileATeamAnswersEndsItSkipped() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.pause, at: sec(22))
        let actions = try game.handle(.skipQuestion, at: sec(23))
        expectEnded(game, actions, as: .skipped, at: sec(23))
    }

    @Test("A wrong answer overruled to right after a skip, and back to wrong, leaves the question skipped")
    func overrulingTwiceAfterASkipLeavesItSkipped() throws {
        var game = try owlsWrongWithFoxesUp()
        _ = try game.handle(.skipQuestion, at: sec(23))
        let overruled = try game.handle(.overrule, at: sec(24))
        expectEnded(game, overruled, as: .overruled, winner: "Owls", at: sec(24))
        let actions = try game.handle(.overrule, at: sec(25))
        #expect(game.phase == .roundOver, "Foxes are not called: the host skipped the question")
        expectEnded(game, actions, as: .skipped, at: sec(25))
        #expect(game.team(named: "Owls")?.score == 0)
        #expect(game.inconsistency == nil)
    }

    @Test("A paused question that an overrule ended, and the next one opened again, comes back paused")
    func overrulingTwiceWhilePausedKeepsThePause() throws {
        var game = try owlsWrongWithFoxesUp()
        _ = try game.handle(.pause, at: sec(23))
        _ = try game.handle(.overrule, at: sec(24))
        #expect(game.phase == .roundOver && !game.isPaused)
        let actions = try game.handle(.overrule, at: sec(25))
        #expect(game.phase == .answering(team: "Foxes"))
        #expect(game.isPaused, "the host paused and never resumed")
        #expect(actions.last == .paused)
        #expect(game.remainingTime(at: sec(40)) == sec(60), "a paused countdown does not run")
        #expect(game.inconsistency == nil)
        // Once resumed and overruled again, the next overrule back to wrong does not pause by itself.
        _ = try game.handle(.resume, at: sec(41))
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(42))
        #expect(game.phase == .roundOver)
    }

    @Test("Overrules after the host ended the game in a question leave it ended during that question")
    func overrulingAfterEndingTheGameInAQuestionKeepsGameEnded() throws {
        var game = try owlsWrongWithFoxesUp(answers: ["Paris", "Rome"])
        _ = try game.handle(.endGame, at: sec(23))
        #expect(game.round?.end == .gameEnded)
        _ = try game.handle(.overrule, at: sec(24))
        #expect(game.round?.end == .gameEnded && game.round?.winner == "Owls")
        _ = try game.handle(.overrule, at: sec(25))
        #expect(game.round?.end == .gameEnded && game.round?.winner == nil)
        #expect(game.status(at: sec(25)).roundEnd == .gameEnded)
    }

    @Test func endingTheGameDuringAQuestionEndsItGameEnded() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        let actions = try game.handle(.endGame, at: sec(3))
        #expect(game.phase == .gameOver)
        expectEnded(game, actions, as: .gameEnded, at: sec(3))
    }

    @Test func endingTheGameAfterAQuestionKeepsHowItEnded() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.skipQuestion, at: sec(1))
        let actions = try game.handle(.endGame, at: sec(2))
        #expect(revealed(actions) == nil, "a question that is over is not revealed again")
        #expect(game.round?.end == .skipped)
        #expect(game.status(at: sec(2)).roundEnd == .skipped)
    }

    @Test func overrulingAWrongAnswerWhileAnotherTeamAnswersEndsItOverruled() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Kobenhavn"), at: sec(22))
        let actions = try game.handle(.overrule, at: sec(23))
        expectEnded(game, actions, as: .overruled, winner: "Owls", at: sec(23))
    }

    @Test("Overruling the last wrong answer after the end reveals it again, won and overruled")
    func overrulingAfterTheEndMarksItOverruled() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Kobenhavn"), at: sec(22))
        #expect(game.round?.end == .wrongAnswers)
        let actions = try game.handle(.overrule, at: sec(23))
        expectEnded(game, actions, as: .overruled, winner: "Owls", at: sec(23))
    }

    @Test("A right answer overruled to wrong with nobody left ends it overruled, with no winner")
    func overrulingTheOnlyRightAnswerEndsItOverruledWithoutWinner() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(22))
        #expect(game.round?.end == .answered)
        let actions = try game.handle(.overrule, at: sec(23))
        expectEnded(game, actions, as: .overruled, at: sec(23))
    }

    @Test("A right answer overruled to wrong with a team left to answer puts the question back in play")
    func overrulingARightAnswerWithATeamLeftReopensTheQuestion() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Copenhagen"), at: sec(22))
        let actions = try game.handle(.overrule, at: sec(23))
        #expect(game.phase == .answering(team: "Foxes"))
        #expect(revealed(actions) == nil)
        #expect(game.round?.end == nil, "a question back in play has not ended")
        #expect(game.status(at: sec(23)).roundEnd == nil)
        let answered = try game.handle(.answer(team: "Foxes", text: "Copenhagen"), at: sec(24))
        expectEnded(game, answered, as: .answered, winner: "Foxes", at: sec(24))
    }

    @Test func overrulingAfterTheGameIsOverMarksTheLastQuestionOverruled() throws {
        var game = try CorrectionAfterGameOverTests.finishedGame(.right)
        #expect(game.round?.end == .answered)
        _ = try game.handle(.overrule, at: sec(130))
        #expect(game.phase == .gameOver)
        #expect(game.round?.end == .overruled && game.round?.winner == nil)
        #expect(game.status(at: sec(130)).roundEnd == .overruled)
        _ = try game.handle(.overrule, at: sec(131))
        #expect(game.round?.end == .overruled && game.round?.winner == "Foxes")
    }

    @Test("Taking back the buzz of the last team up once the time to buzz is gone ends it time's up")
    func undoingTheLastBuzzAfterTheTimeRanOutEndsItTimeUp() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        _ = try game.handle(.clockAdvanced, at: sec(21))
        _ = try game.handle(.answer(team: "Owls", text: "Oslo"), at: sec(22))
        #expect(game.phase == .answering(team: "Foxes"))
        let actions = try game.handle(.undoBuzz(team: "Foxes"), at: sec(23))
        expectEnded(game, actions, as: .timeUp, at: sec(23))
    }

    @Test func theNextQuestionStartsWithoutAnEnd() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.skipQuestion, at: sec(1))
        _ = try game.handle(.nextQuestion, at: sec(2))
        #expect(game.round?.number == 2 && game.round?.end == nil)
        #expect(game.status(at: sec(2)).roundEnd == nil)
    }

    @Test func howItEndedIsKeptInTheSnapshotAcrossARestart() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.skipQuestion, at: sec(1))
        let json = try JSONEncoder().encode(game)
        #expect(String(decoding: json, as: UTF8.self).contains(#""end":"skipped""#))
        var restored = try JSONDecoder().decode(Game.self, from: json)
        restored.restore(at: sec(500))
        #expect(restored.round?.end == .skipped)
        #expect(restored.status(at: sec(500)).roundEnd == .skipped)
    }

    /// A game saved over a question that was over by the version before questions kept how they ended: the JSON
    /// that version wrote, with no `end` on the round.
    static let snapshotSavedBeforeRoundEnds = #"""
        {"isPaused":false,"lastUpdate":[0,7000000000000000000],"phase":{"roundOver":{}},"questions":[\#
        {"alternates":[],"answer":"Rome","difficulty":"medium","text":"Question 2?"},\#
        {"alternates":[],"answer":"Paris","difficulty":"medium","text":"Question 1?"}],\#
        "random":{"state":[1883055181923034211,12592659440258386561,9181855200533048677,3232536183901705803]},\#
        "round":{"buzzes":[],"elapsed":[0,5000000000000000000],"hintCooldownRemaining":[0,0],\#
        "hintTimes":[[0,2000000000000000000]],"hintsUsed":1,"number":1,"points":8,"question":{"alternates":[],\#
        "answer":"Rome","difficulty":"medium","text":"Question 2?"},"scramble":{"fixedCount":1,\#
        "letterPositions":[0,1,2,3],"shown":["R","M","O","E"],"solution":["R","O","M","E"]},"turnsTaken":0},\#
        "seed":7,"settings":{"answerTime":[3,4659767778871345152],"answerTolerance":true,"basePoints":10,\#
        "buzzerMode":"buzz-order","hintCooldown":[0,1500000000000000000],"ignoreDiacritics":true,\#
        "indicationTime":[3,4659767778871345152],"maximumHints":3,"minimumPoints":2,"pointsPerHint":2,\#
        "timeAfterFirstBuzz":[1,1553255926290448384]},"teams":[{"adjustments":[],"buzzCount":0,\#
        "correctAnswers":0,"hintsUsed":0,"name":"Owls","score":0,"totalBuzzTime":[0,0]},{"adjustments":[],\#
        "buzzCount":0,"correctAnswers":0,"hintsUsed":0,"name":"Foxes","score":0,"totalBuzzTime":[0,0]}]}
        """#

    @Test("A snapshot saved before questions kept how they ended loads, says nothing of it, and plays on")
    func aSnapshotSavedBeforeRoundEndsLoads() throws {
        var game = try JSONDecoder().decode(Game.self, from: Data(Self.snapshotSavedBeforeRoundEnds.utf8))
        #expect(game.inconsistency == nil)
        #expect(game.phase == .roundOver)
        #expect(game.round?.end == nil)
        let status = game.status(at: sec(20))
        #expect(status.revealedAnswer == "Rome" && status.roundWinner == nil && status.roundEnd == nil)
        game.restore(at: sec(20))
        _ = try game.handle(.nextQuestion, at: sec(21))
        let actions = try game.handle(.skipQuestion, at: sec(22))
        expectEnded(game, actions, as: .skipped, at: sec(22))
    }
}

import Testing
import TriviaEngine

@Suite("Host controls")
struct HostControlTests {
    @Test func skipEndsTheQuestionWithoutPoints() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(1))
        let actions = try game.handle(.skipQuestion, at: ms(1500))
        #expect(
            actions == [
                .answerRevealed(answer: "Copenhagen", winner: nil, end: .skipped), .phaseChanged(.roundOver),
                .cancelWake,
            ])
        #expect(game.teams.allSatisfy { $0.score == 0 })
        expectRefused(game, .skipQuestion, at: sec(2), .noQuestionInPlay(phase: .roundOver))
    }

    @Test func skipWorksWhilePaused() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.pause, at: sec(1))
        _ = try game.handle(.skipQuestion, at: sec(2))
        #expect(game.phase == .roundOver)
        #expect(!game.isPaused)
    }

    @Test("A pause dated before the last event (a suspend measured a moment apart) stops the countdown as it stands")
    func aPauseDatedEarlierTakesNoTimeBack() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        let left = try #require(game.remainingTime(at: sec(4)))
        // The runtime dates a suspend's pause when the system went to sleep, which its two clocks place a moment
        // before the last event at worst: nothing is given back or charged, and the countdown stays paused.
        let actions = try game.handle(.pause, at: sec(2))
        #expect(actions == [.paused, .cancelWake])
        #expect(game.isPaused)
        #expect(game.remainingTime(at: sec(100)) == left + sec(1))
        _ = try game.handle(.resume, at: sec(100))
        #expect(game.remainingTime(at: sec(101)) == left)
    }

    @Test func nextQuestionWalksThroughTheGameAndEndsItAfterTheLast() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: sec(0))
        #expect(game.round?.number == 1)
        expectRefused(game, .nextQuestion, at: sec(1), .questionInPlay(phase: .indication))
        _ = try game.handle(.skipQuestion, at: sec(2))
        let second = try game.handle(.nextQuestion, at: sec(3))
        let text = game.questions[1].text
        #expect(second.contains { if case .roundStarted(2, 2, text, _, 10, sec(60)) = $0 { true } else { false } })
        _ = try game.handle(.skipQuestion, at: sec(4))
        let end = try game.handle(.nextQuestion, at: sec(5))
        let result = try #require(game.result)
        #expect(end == [.phaseChanged(.gameOver), .gameOver(result)])
        #expect(!result.endedEarly)
        #expect(result.questionsPlayed == 2)
    }

    @Test func adjustScoreChangesOneTeamAndSaysWhy() throws {
        var game = try EngineFixtures.game()
        #expect(
            try game.handle(.adjustScore(team: "bears", delta: 5, reason: " bonus for style "), at: sec(1)) == [
                .scoreAdjusted(team: "Bears", delta: 5, reason: "bonus for style", newScore: 5)
            ])
        _ = try game.handle(.adjustScore(team: "Bears", delta: -7, reason: "cheating"), at: sec(2))
        #expect(game.teams.map(\.score) == [0, 0, -2])
        expectRefused(game, .adjustScore(team: "Bears", delta: 0, reason: "x"), at: sec(3), .zeroAdjustment)
        expectRefused(
            game, .adjustScore(team: "Bears", delta: 1001, reason: "x"), at: sec(3), .adjustmentTooLarge(1001))
        expectRefused(
            game, .adjustScore(team: "Bears", delta: .min, reason: "x"), at: sec(3), .adjustmentTooLarge(.min))
        expectRefused(game, .adjustScore(team: "Bears", delta: 1, reason: "  "), at: sec(3), .missingReason)
        expectRefused(game, .adjustScore(team: "Moles", delta: 1, reason: "x"), at: sec(3), .unknownTeam("Moles"))
        // A reason is at most 200 characters, as people count them, after trimming.
        let longest = "  " + String(repeating: "ü", count: Game.longestAdjustmentReason) + " "
        var adjusted = game
        #expect(throws: Never.self) {
            _ = try adjusted.handle(.adjustScore(team: "Bears", delta: 1, reason: longest), at: sec(3))
        }
        expectRefused(
            game, .adjustScore(team: "Bears", delta: 1, reason: String(repeating: "ü", count: 201)), at: sec(3),
            .reasonTooLong(characters: 201))
        // …and at most 1 600 code points: 200 letters with 2 400 accents stacked on each were a megabyte kept in the
        // saved game, which every change writes whole.
        let stacked = String(repeating: "a" + String(repeating: "\u{301}", count: 2_400), count: 200)
        expectRefused(
            game, .adjustScore(team: "Bears", delta: 1, reason: stacked), at: sec(3),
            .reasonTooComplex(codePoints: 200 * 2_401))
    }

    @Test func aTeamHasAtMostFiveThousandAdjustments() throws {
        var game = try EngineFixtures.game()
        for index in 0..<Game.mostAdjustmentsPerTeam {
            _ = try game.handle(.adjustScore(team: "Owls", delta: index % 2 == 0 ? 1 : -1, reason: "x"), at: sec(1))
        }
        expectRefused(
            game, .adjustScore(team: "owls", delta: 1, reason: "x"), at: sec(2), .adjustmentLimitReached(team: "Owls"))
        _ = try game.handle(.adjustScore(team: "Foxes", delta: 1, reason: "x"), at: sec(2))
        #expect(game.inconsistency == nil)
    }

    @Test func endingEarlyClosesTheOpenQuestionAndGivesTheResult() throws {
        var game = try EngineFixtures.game(answers: ["Paris", "Rome"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.adjustScore(team: "Foxes", delta: 3, reason: "quiz-master's whim"), at: ms(200))
        let actions = try game.handle(.endGame, at: ms(500))
        let result = try #require(game.result)
        #expect(
            actions.withoutTimekeeping == [
                .answerRevealed(answer: game.questions[0].answer, winner: nil, end: .gameEnded),
                .phaseChanged(.roundOver),
                .phaseChanged(.gameOver), .gameOver(result),
            ])
        #expect(actions.last == .cancelWake)
        #expect(result.endedEarly)
        #expect(result.questionsPlayed == 1 && result.questionCount == 2)
        #expect(result.winners == ["Foxes"])
        #expect(game.phase == .gameOver)
    }

    @Test func endingDuringTheLastQuestionCountsAsEarly() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.endGame, at: sec(1))
        #expect(game.result?.endedEarly == true)
    }

    @Test func afterGameOverOnlyTheClockAndCorrectionsAreTaken() throws {
        var game = try EngineFixtures.game()
        _ = try game.handle(.endGame, at: sec(1))
        #expect(try game.handle(.clockAdvanced, at: sec(2)) == [])
        let events: [GameEvent] = [
            .nextQuestion, .skipQuestion, .pause, .resume, .endGame, .hint(source: .shake), .buzz(team: "Owls"),
            .answer(team: "Owls", text: "x"), .undoBuzz(team: "Owls"),
        ]
        for event in events {
            expectRefused(game, event, at: sec(3), .gameIsOver)
        }
    }

    @Test func statusShowsWhatWatchersNeed() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.hint(source: .manual), at: sec(1))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(2))
        let status = game.status(at: ms(4500))
        #expect(status.phase == .indication && !status.isPaused)
        #expect(status.questionNumber == 1 && status.questionCount == 1)
        #expect(status.questionText == "Question 1?")
        #expect(status.points == 8 && status.hintsUsed == 1 && status.hintsLeft == 2)
        #expect(status.remaining == ms(17_500))
        #expect(status.buzzOrder == [Buzz(team: "Foxes", elapsed: sec(2), points: 8, hintsUsed: 1)])
        #expect(status.display?.pattern == "_ _ _ _ _ _ _ _ _ _")
        #expect(status.revealedAnswer == nil)
        #expect(status.teams.map(\.name) == EngineFixtures.teams)
    }
}

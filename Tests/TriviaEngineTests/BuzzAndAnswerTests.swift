import Testing
import TriviaEngine

@Suite("Buzzing and answering")
struct BuzzAndAnswerTests {
    @Test func firstBuzzCutsTheIndicationTimeToTwentySeconds() throws {
        var game = try EngineFixtures.openGame()
        let actions = try game.handle(.buzz(team: "Owls"), at: sec(10))
        #expect(
            actions.withoutTimekeeping.first
                == .buzzed(team: "Owls", order: 1, elapsed: sec(10), indicationRemaining: sec(20)))
        #expect(game.remainingTime(at: sec(10)) == sec(20))
        _ = try game.handle(.clockAdvanced, at: ms(29_999))
        #expect(game.phase == .indication)
        let end = try game.handle(.clockAdvanced, at: sec(30))
        #expect(
            end.withoutTimekeeping == [
                .phaseChanged(.answering(team: "Owls")), .teamUp(team: "Owls", answerTime: sec(60)),
            ])
    }

    @Test func firstBuzzKeepsWhatIsLeftIfLessThanTwentySeconds() throws {
        var game = try EngineFixtures.openGame()
        let actions = try game.handle(.buzz(team: "Bears"), at: ms(45_500))
        #expect(
            actions.withoutTimekeeping.first
                == .buzzed(team: "Bears", order: 1, elapsed: ms(45_500), indicationRemaining: ms(14_500)))
        _ = try game.handle(.clockAdvanced, at: ms(59_999))
        #expect(game.phase == .indication)
        _ = try game.handle(.clockAdvanced, at: sec(60))
        #expect(game.phase == .answering(team: "Bears"))
    }

    @Test func laterBuzzesDoNotCutAgain() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(10))
        let actions = try game.handle(.buzz(team: "Foxes"), at: sec(25))
        #expect(
            actions.withoutTimekeeping.first
                == .buzzed(team: "Foxes", order: 2, elapsed: sec(25), indicationRemaining: sec(5)))
    }

    @Test func buzzOrderAndTimesAreRecordedAndTheLastBuzzEndsIndication() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "foxes"), at: sec(3))
        _ = try game.handle(.buzz(team: "Bears"), at: sec(7))
        #expect(game.phase == .indication)
        let actions = try game.handle(.buzz(team: "OWLS "), at: sec(8))
        let round = try #require(game.round)
        #expect(round.buzzes.map(\.team) == ["Foxes", "Bears", "Owls"])
        #expect(round.buzzes.map(\.elapsed) == [sec(3), sec(7), sec(8)])
        #expect(
            actions.withoutTimekeeping == [
                .buzzed(team: "Owls", order: 3, elapsed: sec(8), indicationRemaining: sec(15)),
                .phaseChanged(.answering(team: "Foxes")), .teamUp(team: "Foxes", answerTime: sec(60)),
            ])
        #expect(actions.last == .wake(after: sec(1)))
        // While a team answers, a team that buzzed is told so, and in a pause the pause is; to the players the
        // question is still open.
        expectRefused(game, .buzz(team: "Owls"), at: sec(9), .alreadyBuzzed(team: "Owls"))
        _ = try game.handle(.pause, at: sec(9))
        expectRefused(game, .buzz(team: "Owls"), at: sec(9), .gamePaused)
    }

    @Test func aTeamBuzzesOncePerQuestion() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        expectRefused(game, .buzz(team: "owls"), at: sec(4), .alreadyBuzzed(team: "Owls"))
        expectRefused(game, .buzz(team: "Wolves"), at: sec(4), .unknownTeam("Wolves"))
    }

    /// A game where Foxes, then Owls, then Bears buzzed, with Foxes up to answer at 10 s.
    private func everyoneBuzzed() throws -> Game {
        var game = try EngineFixtures.openGame(answer: "Copenhagen")
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(6))
        _ = try game.handle(.buzz(team: "Bears"), at: sec(10))
        return game
    }

    @Test func wrongAnswerPassesToTheNextTeamInBuzzOrder() throws {
        var game = try everyoneBuzzed()
        expectRefused(
            game, .answer(team: "Owls", text: "Copenhagen"), at: sec(11), .notYourTurn(team: "Owls", upNow: "Foxes"))
        // Kept as said, without the spaces around it.
        let actions = try game.handle(.answer(team: "Foxes", text: " Stockholm \n"), at: sec(12))
        #expect(
            actions.withoutTimekeeping == [
                .judged(team: "Foxes", given: "Stockholm", correct: false, pointsAwarded: 0),
                .phaseChanged(.answering(team: "Owls")), .teamUp(team: "Owls", answerTime: sec(60)),
            ])
        #expect(game.remainingTime(at: sec(12)) == sec(60))
        let right = try game.handle(.answer(team: "Owls", text: "Copenhagn"), at: sec(20))
        #expect(
            right.withoutTimekeeping == [
                .judged(team: "Owls", given: "Copenhagn", correct: true, pointsAwarded: 10),
                .answerRevealed(answer: "Copenhagen", winner: "Owls", end: .answered), .phaseChanged(.roundOver),
            ])
        #expect(right.last == .cancelWake)
        #expect(game.teams.map(\.score) == [10, 0, 0])
        #expect(game.team(named: "Owls")?.correctAnswers == 1)
    }

    @Test func timeoutPassesToTheNextTeam() throws {
        var game = try everyoneBuzzed()
        _ = try game.handle(.clockAdvanced, at: ms(69_999))
        #expect(game.teamUp == "Foxes")
        let actions = try game.handle(.clockAdvanced, at: sec(70))
        #expect(
            actions.withoutTimekeeping == [
                .judged(team: "Foxes", given: nil, correct: false, pointsAwarded: 0),
                .phaseChanged(.answering(team: "Owls")), .teamUp(team: "Owls", answerTime: sec(60)),
            ])
        #expect(game.remainingTime(at: sec(70)) == sec(60))
    }

    @Test func nobodyRightRevealsTheAnswerAndScoresNothing() throws {
        var game = try everyoneBuzzed()
        _ = try game.handle(.answer(team: "Foxes", text: "Oslo"), at: sec(11))
        _ = try game.handle(.answer(team: "Owls", text: ""), at: sec(12))
        let actions = try game.handle(.answer(team: "Bears", text: "Helsinki"), at: sec(13))
        #expect(
            actions.withoutTimekeeping == [
                .judged(team: "Bears", given: "Helsinki", correct: false, pointsAwarded: 0),
                .answerRevealed(answer: "Copenhagen", winner: nil, end: .wrongAnswers), .phaseChanged(.roundOver),
            ])
        #expect(actions.last == .cancelWake)
        #expect(game.teams.allSatisfy { $0.score == 0 })
        #expect(game.status(at: sec(14)).revealedAnswer == "Copenhagen")
    }

    @Test func nobodyBuzzedRevealsTheAnswerWhenTimeRunsOut() throws {
        var game = try EngineFixtures.openGame()
        let actions = try game.handle(.clockAdvanced, at: sec(60))
        #expect(
            actions == [
                .answerRevealed(answer: "Copenhagen", winner: nil, end: .timeUp), .phaseChanged(.roundOver),
                .cancelWake,
            ])
        #expect(game.phase == .roundOver)
    }

    @Test func answersWaitUntilBuzzingIsOver() throws {
        var game = try EngineFixtures.openGame()
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        expectRefused(game, .answer(team: "Owls", text: "Copenhagen"), at: sec(4), .notAnsweringYet)
    }

    @Test func alternatesAreAccepted() throws {
        let question = Question(
            text: "Which country?", answer: "United Kingdom", alternates: ["UK", "Britain"], difficulty: .easy)
        var game = try Game(
            setup: GameSetup(teams: ["A", "B"], questionPool: [question], questionCount: 1, seed: 3))
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.buzz(team: "B"), at: sec(1))
        _ = try game.handle(.buzz(team: "A"), at: sec(2))
        _ = try game.handle(.answer(team: "B", text: "U.K."), at: sec(3))
        #expect(game.team(named: "B")?.score == 10)
    }
}

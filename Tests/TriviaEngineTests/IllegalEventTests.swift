import Testing
import TriviaEngine

/// Every event that the rules do not allow in a phase throws its error and changes nothing.
@Suite("Illegal events")
struct IllegalEventTests {
    private func ready() throws -> Game { try EngineFixtures.game() }

    private func indication() throws -> Game { try EngineFixtures.openGame() }

    private func pausedIndication() throws -> Game {
        var game = try indication()
        _ = try game.handle(.pause, at: sec(10))
        return game
    }

    private func answering() throws -> Game {
        var game = try indication()
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(5))
        _ = try game.handle(.clockAdvanced, at: sec(25))
        return game
    }

    private func roundOver() throws -> Game {
        var game = try indication()
        _ = try game.handle(.skipQuestion, at: sec(5))
        return game
    }

    @Test func inReady() throws {
        let game = try ready()
        expectRefused(game, .skipQuestion, at: sec(30), .noQuestionInPlay(phase: .ready))
        expectRefused(game, .pause, at: sec(30), .nothingToPause(phase: .ready))
        expectRefused(game, .resume, at: sec(30), .notPaused)
        expectRefused(game, .hint(source: .shake), at: sec(30), .roundNotOpen(phase: .ready))
        expectRefused(game, .buzz(team: "Owls"), at: sec(30), .roundNotOpen(phase: .ready))
        expectRefused(game, .answer(team: "Owls", text: "Paris"), at: sec(30), .noAnswerExpected(phase: .ready))
    }

    @Test func inIndication() throws {
        let game = try indication()
        expectRefused(game, .nextQuestion, at: sec(30), .questionInPlay(phase: .indication))
        expectRefused(game, .resume, at: sec(30), .notPaused)
        expectRefused(game, .answer(team: "Owls", text: "Paris"), at: sec(30), .notAnsweringYet)
        expectRefused(game, .buzz(team: "Nobody"), at: sec(30), .unknownTeam("Nobody"))
        expectRefused(game, .adjustScore(team: "Owls", delta: 0, reason: "none"), at: sec(30), .zeroAdjustment)
        // A buzz after the deadline that no wake-up has processed yet is refused, time and all.
        expectRefused(game, .buzz(team: "Owls"), at: sec(61), .roundNotOpen(phase: .roundOver))
    }

    @Test func whilePaused() throws {
        let game = try pausedIndication()
        expectRefused(game, .pause, at: sec(30), .alreadyPaused)
        expectRefused(game, .hint(source: .manual), at: sec(30), .gamePaused)
        expectRefused(game, .buzz(team: "Owls"), at: sec(30), .gamePaused)
        expectRefused(game, .nextQuestion, at: sec(30), .questionInPlay(phase: .indication))
    }

    @Test func inAnswering() throws {
        let game = try answering()
        #expect(game.phase == .answering(team: "Foxes"))
        expectRefused(
            game, .answer(team: "Owls", text: "Copenhagen"), at: sec(30), .notYourTurn(team: "Owls", upNow: "Foxes"))
        expectRefused(game, .answer(team: "Wolves", text: "Copenhagen"), at: sec(30), .unknownTeam("Wolves"))
        expectRefused(game, .buzz(team: "Owls"), at: sec(30), .roundNotOpen(phase: .answering(team: "Foxes")))
        expectRefused(game, .hint(source: .shake), at: sec(30), .roundNotOpen(phase: .answering(team: "Foxes")))
        expectRefused(game, .nextQuestion, at: sec(30), .questionInPlay(phase: .answering(team: "Foxes")))
        // An answer is at most 200 characters (letters as people count them: "é" is one), judged or refused whole.
        let longest = String(repeating: "é", count: Game.longestGivenAnswer)
        var judged = game
        #expect(throws: Never.self) { _ = try judged.handle(.answer(team: "Foxes", text: longest), at: sec(30)) }
        #expect(judged.phase != game.phase)
        expectRefused(game, .answer(team: "Foxes", text: longest + "e"), at: sec(30), .answerTooLong(characters: 201))
        // …and at most 1 600 code points: one letter with thousands of accents stacked on it counts as one character.
        let stacked = String(repeating: "a" + String(repeating: "\u{301}", count: 2_400), count: 200)
        expectRefused(
            game, .answer(team: "Foxes", text: stacked), at: sec(30), .answerTooComplex(codePoints: 200 * 2_401))
        let eightEach = String(repeating: "a" + String(repeating: "\u{301}", count: 7), count: 200)
        var judgedToo = game
        #expect(throws: Never.self) { _ = try judgedToo.handle(.answer(team: "Foxes", text: eightEach), at: sec(30)) }
    }

    @Test func inRoundOver() throws {
        let game = try roundOver()
        expectRefused(game, .skipQuestion, at: sec(30), .noQuestionInPlay(phase: .roundOver))
        expectRefused(game, .pause, at: sec(30), .nothingToPause(phase: .roundOver))
        expectRefused(game, .buzz(team: "Owls"), at: sec(30), .roundNotOpen(phase: .roundOver))
        expectRefused(game, .answer(team: "Owls", text: "x"), at: sec(30), .noAnswerExpected(phase: .roundOver))
    }

    @Test func everyErrorHasAMessage() {
        let errors: [GameError] = [
            .gameIsOver, .gamePaused, .roundNotOpen(phase: .ready), .noQuestionInPlay(phase: .ready),
            .questionInPlay(phase: .indication), .unknownTeam("X"), .alreadyBuzzed(team: "X"), .notAnsweringYet,
            .notYourTurn(team: "X", upNow: "Y"), .noAnswerExpected(phase: .ready), .hintLimitReached(maximum: 1),
            .hintWouldRevealAnswer, .hintCoolingDown(remaining: ms(5)), .nothingToPause(phase: .ready),
            .alreadyPaused, .notPaused, .zeroAdjustment, .adjustmentTooLarge(5000), .missingReason,
            .nothingToOverrule, .noBuzzToUndo(team: "X"), .buzzAlreadyJudged(team: "X"),
            .answerTooLong(characters: 201), .reasonTooLong(characters: 201), .adjustmentLimitReached(team: "X"),
            .answerTooComplex(codePoints: 1_601), .reasonTooComplex(codePoints: 1_601),
            .buzzNotUndoable(phase: .ready), .nobodyHasBuzzed,
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(
            GameError.notYourTurn(team: "Owls", upNow: "Foxes").description
                == "it is Foxes' turn to answer, not Owls'")
        #expect(GameError.unknownTeam("Wolves").description.contains("Wolves"))
        #expect(
            GameError.hintLimitReached(maximum: 0).description
                == "this game takes no hints: its rules allow none")
    }
}

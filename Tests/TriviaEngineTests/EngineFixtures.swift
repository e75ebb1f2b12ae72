import Testing
import TriviaEngine

/// Builders shared by the engine tests.
enum EngineFixtures {
    static let teams = ["Owls", "Foxes", "Bears"]

    /// One medium question per answer, numbered in its text.
    static func questions(_ answers: [String], difficulty: Difficulty = .medium) -> [Question] {
        answers.enumerated().map { index, answer in
            Question(text: "Question \(index + 1)?", answer: answer, difficulty: difficulty)
        }
    }

    /// A game over `answers` (all of them, in a seed-dependent order).
    static func game(
        teams: [String] = teams, answers: [String] = ["Copenhagen"], settings: GameRules = GameRules(),
        seed: UInt64 = 7
    ) throws -> Game {
        try Game(
            setup: GameSetup(
                teams: teams, questionPool: questions(answers), questionCount: answers.count, settings: settings,
                seed: seed))
    }

    /// A game with its first question open at time zero.
    static func openGame(
        teams: [String] = teams, answer: String = "Copenhagen", settings: GameRules = GameRules(),
        seed: UInt64 = 7
    ) throws -> Game {
        var game = try game(teams: teams, answers: [answer], settings: settings, seed: seed)
        _ = try game.handle(.nextQuestion, at: .zero)
        return game
    }
}

/// Seconds as a duration, for readable times in tests.
func sec(_ seconds: Int) -> Duration { .seconds(seconds) }

/// Milliseconds as a duration.
func ms(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

/// Checks that `event` at `now` is refused with `expected` and leaves `game` exactly as it was.
func expectRefused(
    _ game: Game, _ event: GameEvent, at now: Duration, _ expected: GameError,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var copy = game
    #expect(throws: expected, sourceLocation: sourceLocation) {
        _ = try copy.handle(event, at: now)
    }
    #expect(copy == game, "state changed by a refused \(event)", sourceLocation: sourceLocation)
}

extension Array where Element == GameAction {
    /// The actions other than wake-up bookkeeping and ticks.
    var withoutTimekeeping: [GameAction] {
        filter {
            switch $0 {
            case .wake, .cancelWake, .tick: false
            default: true
            }
        }
    }
}

import ShakyCore

/// The state of one game of Shaky Words: a synchronous state machine driven by `handle(_:at:)`.
///
/// The game never reads a clock. Every event comes with `now`, a reading of the runtime's monotonic
/// clock as a duration since any epoch; countdowns are kept as remaining durations, so a snapshot
/// (the whole value, encoded as JSON) stays valid across a restart: call `restore(at:)` with the new
/// clock's reading and the game continues, paused, with exactly the time it had left.
///
/// Phases: `ready` → (`nextQuestion`) → `indication` → `answering(team)` for each team that buzzed,
/// in buzz order → `roundOver` → `indication` … → `gameOver` (after the last question, or when the
/// host ends the game). Pausing freezes the countdown of `indication` or `answering`.
///
/// Team names in events match ignoring case and surrounding spaces (``TeamNameKey``: "STRASSE" names "Straße"); actions
/// always carry the name as set up.
public struct Game: Codable, Equatable, Sendable {
    /// The rules of this game.
    public let settings: GameRules
    /// The teams, in seating order, with scores and statistics.
    public internal(set) var teams: [Team]
    /// The questions drawn for this game, in playing order.
    public private(set) var questions: [Question]
    /// Where the game is.
    public internal(set) var phase: GamePhase
    /// Whether the countdown is frozen (only in `indication` or `answering`).
    public internal(set) var isPaused: Bool
    /// The question in play, or the last one played.
    public internal(set) var round: Round?
    /// The final result, once the game is over.
    public internal(set) var result: GameResult?
    /// The seed the game was created with.
    public let seed: UInt64
    /// Whether this is a demonstration game; nil (not a demo) in games saved before it was kept.
    let demo: Bool?
    /// The generator for scrambles; continues its sequence across snapshots.
    var random: SeededRandomGenerator
    /// The clock reading of the last event handled; elapsed time is measured from it.
    var lastUpdate: Duration

    /// The largest score adjustment, either way, that the host may make in one step.
    public static let largestAdjustment = ScoreAdjustmentRules.largest

    /// The longest answer, in characters, that a team may give: five times a pack's longest answer, room for any
    /// sentence a player says, while an answer is echoed to every watcher and kept in the saved game.
    public static let longestGivenAnswer = 200

    /// The longest reason, in characters, for a score adjustment: it is shown on the scoreboard, echoed to every
    /// watcher and kept in the saved game and the history.
    public static let longestAdjustmentReason = 200

    /// The most Unicode code points an answer or a reason may hold: 8 for each of its 200 characters, as for a team
    /// name. A character stacked with thousands of combining marks counts as one, so without it 200 characters could
    /// be a megabyte, kept in the saved game that every change writes whole and sent to every watcher.
    public static let mostCodePointsInText = 8 * 200

    /// The most score adjustments one team may have in a game: far beyond any party, while each is kept in the saved
    /// game, which every save writes whole.
    public static let mostAdjustmentsPerTeam = 5_000

    /// Starts a game: checks the setup and draws its questions with the seeded generator.
    ///
    /// The game starts in `ready`; the host's first `.nextQuestion` opens question 1.
    public init(setup: GameSetup) throws(GameSetupError) {
        let names = try setup.validatedTeamNames()
        guard GameSetup.questionCountRange.contains(setup.questionCount) else {
            throw .questionCount(setup.questionCount)
        }
        do {
            try setup.settings.validate()
        } catch {
            throw .settings(error)
        }
        var eligible = setup.eligibleQuestions
        guard eligible.count >= setup.questionCount else {
            throw .notEnoughQuestions(
                requested: setup.questionCount, eligible: eligible.count, difficulty: setup.difficulty)
        }
        var random = SeededRandomGenerator(seed: setup.seed)
        random.shuffle(&eligible)
        settings = setup.settings
        teams = names.map(Team.init(name:))
        questions = Array(eligible.prefix(setup.questionCount))
        phase = .ready
        isPaused = false
        round = nil
        result = nil
        seed = setup.seed
        demo = setup.isDemo ? true : nil
        self.random = random
        lastUpdate = .zero
    }

    /// Whether this is a demonstration game, which the records keep out of the leaderboard.
    public var isDemo: Bool { demo ?? false }

    /// The team called `name` (ignoring case and surrounding spaces), if it plays.
    public func team(named name: String) -> Team? {
        teams.first { TeamNameKey.of($0.name) == TeamNameKey.of(name) }
    }

    /// Whether a countdown is running now.
    public var isCountdownRunning: Bool {
        phase.hasTimer && !isPaused
    }

    /// The number of questions in the game.
    public var questionCount: Int { questions.count }

    /// The game with no questions: what a store encodes around the questions, which never change while a game is
    /// played, when it keeps their encoding from one save to the next. Not a game to play on.
    public var questionsLeftOut: Game {
        var game = self
        game.questions = []
        return game
    }

    /// The team whose turn it is to answer, if any.
    public var teamUp: String? {
        if case .answering(let team) = phase { team } else { nil }
    }

    /// How many more hints the open question can take now (0 outside the indication phase).
    public var hintsLeft: Int {
        guard phase == .indication, let round else { return 0 }
        let byRule = settings.maximumHints - round.hintsUsed
        let byAnswer = round.scramble.hintCapacity - round.scramble.fixedCount
        return max(0, min(byRule, byAnswer))
    }

    /// The time left in the running or paused countdown at `now`, without handling any event
    /// (zero once a deadline has passed that no `.clockAdvanced` has processed yet).
    public func remainingTime(at now: Duration) -> Duration? {
        guard phase.hasTimer, let remaining = round?.remaining else { return nil }
        guard !isPaused else { return remaining }
        return max(.zero, remaining - max(.zero, now - lastUpdate))
    }

    /// Takes the game over after a restart: rebases its time on `now` (the new clock's reading) and,
    /// if a countdown was running, pauses it with exactly the time it had left when it was saved.
    @discardableResult
    public mutating func restore(at now: Duration) -> [GameAction] {
        lastUpdate = now
        guard isCountdownRunning else { return [] }
        isPaused = true
        return [.paused]
    }
}

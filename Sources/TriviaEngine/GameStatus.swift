/// A snapshot of what players and watchers see, for status calls and boards.
public struct GameStatus: Codable, Equatable, Sendable {
    /// A team's name and score.
    public struct TeamScore: Codable, Equatable, Sendable {
        /// The team's name.
        public var name: String
        /// Its points so far.
        public var score: Int
    }

    /// Where the game is.
    public var phase: GamePhase
    /// Whether the countdown is frozen.
    public var isPaused: Bool
    /// The number (from 1) of the question in play or last played; nil before the first.
    public var questionNumber: Int?
    /// How many questions the game has.
    public var questionCount: Int
    /// The text of the question in play or last played.
    public var questionText: String?
    /// The scramble as shown, while a question is in play.
    public var display: ScrambleDisplay?
    /// What a right answer scores now, while a question is in play: while a team answers, what its buzz froze
    /// (hints given after it do not lower it), otherwise what the question is worth after its hints.
    public var points: Int?
    /// Hints given on the current question.
    public var hintsUsed: Int
    /// Hints still available now.
    public var hintsLeft: Int
    /// Time left in the countdown, if one runs or is paused.
    public var remaining: Duration?
    /// The time the countdown started from (the time to buzz, or to answer), if one runs or is paused.
    public var countdownLength: Duration? = nil
    /// The teams in seating order.
    public var teams: [TeamScore]
    /// The buzzes on the current question, in order.
    public var buzzOrder: [Buzz]
    /// The judgements on the current question, in order, as corrected by overrules.
    public var judgements: [Judgement] = []
    /// The team whose turn it is to answer.
    public var teamUp: String?
    /// The answer, once the question is over.
    public var revealedAnswer: String?
    /// The team that answered the last question right, once it is over.
    public var roundWinner: String?
    /// How the last question ended, once it is over; nil in games saved before it was kept.
    public var roundEnd: RoundEnd?
    /// The result, once the game is over.
    public var result: GameResult?
}

extension Game {
    /// What players and watchers see at clock reading `now` (time is projected, not handled).
    public func status(at now: Duration) -> GameStatus {
        let inPlay = phase.hasTimer
        let over = phase == .roundOver || phase == .gameOver
        return GameStatus(
            phase: phase, isPaused: isPaused, questionNumber: round?.number, questionCount: questions.count,
            questionText: round?.question.text, display: inPlay ? round?.scramble.display : nil,
            points: inPlay ? pointsAtStake : nil, hintsUsed: round?.hintsUsed ?? 0, hintsLeft: hintsLeft,
            remaining: remainingTime(at: now), countdownLength: countdownLength(at: now),
            teams: teams.map { .init(name: $0.name, score: $0.score) },
            buzzOrder: round?.buzzes ?? [],
            judgements: round.map { $0.judgements ?? $0.lastJudgement.map { [$0] } ?? [] } ?? [], teamUp: teamUp,
            revealedAnswer: over ? round?.question.answer : nil, roundWinner: over ? round?.winner : nil,
            roundEnd: over ? round?.end : nil, result: result)
    }

    /// The time the running (or paused) countdown started from: the time to buzz or to answer, or more when more
    /// is left (the time a first buzz cut, given back when the buzz is taken back).
    private func countdownLength(at now: Duration) -> Duration? {
        guard let remaining = remainingTime(at: now) else { return nil }
        switch phase {
        case .indication: return max(settings.indicationTime, remaining)
        case .answering: return max(settings.answerTime, remaining)
        case .ready, .roundOver, .gameOver: return nil
        }
    }

    /// What a right answer scores now: the team up's frozen points, or the question's.
    private var pointsAtStake: Int? {
        guard let round else { return nil }
        if let team = teamUp, let frozen = round.buzzes.first(where: { $0.team == team })?.points { return frozen }
        return round.points
    }
}

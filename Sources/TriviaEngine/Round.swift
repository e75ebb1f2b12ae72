/// A team's buzz in a round.
public struct Buzz: Codable, Equatable, Sendable {
    /// The team that buzzed.
    public let team: String
    /// The time from the question opening to the buzz (pauses excluded).
    public internal(set) var elapsed: Duration
    /// What the question was worth when the team buzzed: a right answer from this team scores this,
    /// whatever hints came after its buzz. Nil in games saved before points were frozen at the buzz.
    public internal(set) var points: Int?
    /// The hints given before the buzz (what lowered `points`); nil in games saved before it was kept.
    public internal(set) var hintsUsed: Int?

    /// Creates a buzz record.
    public init(team: String, elapsed: Duration, points: Int? = nil, hintsUsed: Int? = nil) {
        self.team = team
        self.elapsed = elapsed
        self.points = points
        self.hintsUsed = hintsUsed
    }
}

/// The state of one question while it is played and after.
public struct Round: Codable, Equatable, Sendable {
    /// The question's number in the game, from 1.
    public let number: Int
    /// The question.
    public let question: Question
    /// The scrambled answer and the hints placed.
    public internal(set) var scramble: Scramble
    /// Hints given so far.
    public internal(set) var hintsUsed: Int
    /// What a right answer scores now.
    public internal(set) var points: Int
    /// Time since the question opened, pauses excluded.
    public internal(set) var elapsed: Duration
    /// The buzzes, in order.
    public internal(set) var buzzes: [Buzz]
    /// How many of the buzzed teams have had their turn to answer.
    public internal(set) var turnsTaken: Int
    /// Time left in the current phase's countdown; nil once the question is over.
    public internal(set) var remaining: Duration?
    /// Time until the next hint may be given.
    public internal(set) var hintCooldownRemaining: Duration
    /// The team that answered right, if any.
    public internal(set) var winner: String?
    /// How the question ended, once it is over; nil while it is in play, and in games saved before it was kept.
    public internal(set) var end: RoundEnd? = nil
    /// The indication time that was left when answering began, so buzzing can reopen with it
    /// (after a wrong answer in classic mode, or when the host undoes the only buzz). Nil when
    /// buzzing is open or in games saved before it was kept.
    public internal(set) var indicationRemaining: Duration?
    /// How much indication time the first buzz took away (cutting it to the time after a first buzz), so that taking
    /// back every buzz gives it back. Nil without a buzz, or in games saved before it was kept.
    public internal(set) var timeCutByFirstBuzz: Duration? = nil
    /// Whether the host skipped the question: kept when an overrule makes a wrong answer right, so that taking that
    /// overrule back leaves the question skipped instead of opening it again. Nil unless skipped, and in games saved
    /// before it was kept.
    public internal(set) var skipped: Bool? = nil
    /// Whether the game was paused when an overrule made a wrong answer right and so ended the question: an overrule
    /// back to wrong brings it back paused. Nil otherwise, and in games saved before it was kept.
    public internal(set) var pausedWhenOverruled: Bool? = nil
    /// The last judgement on this question, which the host may overrule; nil before any.
    public internal(set) var lastJudgement: Judgement?
    /// Every judgement on this question, in order, as corrected by overrules. Nil in games saved before it was kept.
    public internal(set) var judgements: [Judgement]? = nil
    /// When each hint was given, as time since the question opened, so a press held for reordering that went
    /// down before a hint keeps the points of before it. Nil in games saved before it was kept.
    public internal(set) var hintTimes: [Duration]? = nil
}

/// A judgement of a team's answer, kept so the host can overrule it.
public struct Judgement: Codable, Equatable, Sendable {
    /// The team whose answer was judged.
    public let team: String
    /// What it answered; nil when its time ran out.
    public let given: String?
    /// Whether the answer counts as right (after any overrule).
    public internal(set) var correct: Bool
    /// What a right answer from this team is worth (the points frozen at its buzz).
    public let points: Int
    /// The hints given when the team buzzed, counted in its statistics if the answer is right.
    public let hintsUsed: Int
}

/// One team's score and statistics in a game.
public struct Team: Codable, Equatable, Sendable {
    /// The team's name as entered, trimmed.
    public let name: String
    /// Points so far, including host adjustments (may go below zero through adjustments).
    public internal(set) var score: Int
    /// Questions this team answered right.
    public internal(set) var correctAnswers: Int
    /// Hints given on the questions this team answered right (what its points were lowered by).
    public internal(set) var hintsUsed: Int
    /// How many times this team buzzed.
    public internal(set) var buzzCount: Int
    /// The sum of this team's buzz times (time from a question opening to its buzz).
    public internal(set) var totalBuzzTime: Duration
    /// The host's score adjustments, in the order made, with their reasons.
    public internal(set) var adjustments: [ScoreAdjustment]

    /// Creates a team with no points.
    public init(name: String) {
        self.name = name
        score = 0
        correctAnswers = 0
        hintsUsed = 0
        buzzCount = 0
        totalBuzzTime = .zero
        adjustments = []
    }

    private enum CodingKeys: String, CodingKey {
        case name, score, correctAnswers, hintsUsed, buzzCount, totalBuzzTime, adjustments
    }

    /// Decodes a team; games saved before adjustments were kept have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        score = try container.decode(Int.self, forKey: .score)
        correctAnswers = try container.decode(Int.self, forKey: .correctAnswers)
        hintsUsed = try container.decode(Int.self, forKey: .hintsUsed)
        buzzCount = try container.decode(Int.self, forKey: .buzzCount)
        totalBuzzTime = try container.decode(Duration.self, forKey: .totalBuzzTime)
        adjustments = try container.decodeIfPresent([ScoreAdjustment].self, forKey: .adjustments) ?? []
    }

    /// The mean time this team took to buzz, or nil if it never buzzed.
    public var averageBuzzTime: Duration? {
        buzzCount == 0 ? nil : totalBuzzTime / buzzCount
    }
}

/// A score adjustment the host made, and why.
public struct ScoreAdjustment: Codable, Equatable, Sendable {
    /// The points added (negative: taken away).
    public let delta: Int
    /// The host's reason, as given.
    public let reason: String
    /// The question in play or last played when it was made; nil before the first question.
    public let question: Int?

    /// Creates an adjustment record.
    public init(delta: Int, reason: String, question: Int? = nil) {
        self.delta = delta
        self.reason = reason
        self.question = question
    }
}

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
    /// The indication time that was left when answering began, so buzzing can reopen with it
    /// (after a wrong answer in classic mode, or when the host undoes the only buzz). Nil when
    /// buzzing is open or in games saved before it was kept.
    public internal(set) var indicationRemaining: Duration?
    /// The last judgement on this question, which the host may overrule; nil before any.
    public internal(set) var lastJudgement: Judgement?
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

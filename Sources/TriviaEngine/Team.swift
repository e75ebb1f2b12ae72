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

    /// Creates a team with no points.
    public init(name: String) {
        self.name = name
        score = 0
        correctAnswers = 0
        hintsUsed = 0
        buzzCount = 0
        totalBuzzTime = .zero
    }

    /// The mean time this team took to buzz, or nil if it never buzzed.
    public var averageBuzzTime: Duration? {
        buzzCount == 0 ? nil : totalBuzzTime / buzzCount
    }
}

/// A team's buzz in a round.
public struct Buzz: Codable, Equatable, Sendable {
    /// The team that buzzed.
    public let team: String
    /// The time from the question opening to the buzz (pauses excluded).
    public internal(set) var elapsed: Duration

    /// Creates a buzz record.
    public init(team: String, elapsed: Duration) {
        self.team = team
        self.elapsed = elapsed
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
}

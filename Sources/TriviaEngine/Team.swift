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

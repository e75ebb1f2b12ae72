/// The final standings of a finished game.
public struct GameResult: Codable, Equatable, Sendable {
    /// One team's line on the final scoreboard.
    public struct Standing: Codable, Equatable, Sendable {
        /// The team's name.
        public var team: String
        /// Its final points.
        public var points: Int
        /// Its place: teams with equal points share a rank, and the next rank skips (1, 1, 3).
        public var rank: Int
        /// Questions it answered right.
        public var correctAnswers: Int
        /// Hints given on the questions it answered right.
        public var hintsUsed: Int
        /// How many times it buzzed.
        public var buzzes: Int
        /// Its mean time to buzz, or nil if it never buzzed.
        public var averageBuzzTime: Duration?
        /// The host's score adjustments for the team, with their reasons.
        public var adjustments: [ScoreAdjustment]

        /// Creates a standing.
        public init(
            team: String, points: Int, rank: Int, correctAnswers: Int = 0, hintsUsed: Int = 0, buzzes: Int = 0,
            averageBuzzTime: Duration? = nil, adjustments: [ScoreAdjustment] = []
        ) {
            self.adjustments = adjustments
            self.team = team
            self.points = points
            self.rank = rank
            self.correctAnswers = correctAnswers
            self.hintsUsed = hintsUsed
            self.buzzes = buzzes
            self.averageBuzzTime = averageBuzzTime
        }

        private enum CodingKeys: String, CodingKey {
            case team, points, rank, correctAnswers, hintsUsed, buzzes, averageBuzzTime, adjustments
        }

        /// Decodes a standing; results recorded before adjustments were kept have none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            team = try container.decode(String.self, forKey: .team)
            points = try container.decode(Int.self, forKey: .points)
            rank = try container.decode(Int.self, forKey: .rank)
            correctAnswers = try container.decodeIfPresent(Int.self, forKey: .correctAnswers) ?? 0
            hintsUsed = try container.decodeIfPresent(Int.self, forKey: .hintsUsed) ?? 0
            buzzes = try container.decodeIfPresent(Int.self, forKey: .buzzes) ?? 0
            averageBuzzTime = try container.decodeIfPresent(Duration.self, forKey: .averageBuzzTime)
            adjustments = try container.decodeIfPresent([ScoreAdjustment].self, forKey: .adjustments) ?? []
        }
    }

    /// The teams by points, highest first; tied teams keep their seating order.
    public var standings: [Standing]
    /// The teams ranked first (more than one on a tie); none when no team scored (``isScoreless``) or no question
    /// was played.
    public var winners: [String]
    /// Questions opened before the game ended.
    public var questionsPlayed: Int
    /// Questions the game was set up with.
    public var questionCount: Int
    /// Whether the host ended the game before the last question was over.
    public var endedEarly: Bool

    /// Creates a result.
    public init(
        standings: [Standing], winners: [String], questionsPlayed: Int = 0, questionCount: Int = 0,
        endedEarly: Bool = false
    ) {
        self.standings = standings
        self.winners = winners
        self.questionsPlayed = questionsPlayed
        self.questionCount = questionCount
        self.endedEarly = endedEarly
    }

    /// Whether the game ended before any team scored (no right answer, no points).
    public var isScoreless: Bool {
        standings.allSatisfy { $0.correctAnswers == 0 && $0.points == 0 }
    }

    /// The result of a game between `teams`: sorted by points, ranks shared on ties.
    public init(teams: [Team], questionsPlayed: Int, questionCount: Int, endedEarly: Bool) {
        let sorted = teams.enumerated().sorted { lhs, rhs in
            lhs.element.score != rhs.element.score ? lhs.element.score > rhs.element.score : lhs.offset < rhs.offset
        }.map(\.element)
        let standings = sorted.map { team in
            Standing(
                team: team.name, points: team.score, rank: 1 + teams.count(where: { $0.score > team.score }),
                correctAnswers: team.correctAnswers, hintsUsed: team.hintsUsed, buzzes: team.buzzCount,
                averageBuzzTime: team.averageBuzzTime, adjustments: team.adjustments)
        }
        // A game whose teams all tied without a right answer and with nothing gained (none scored, or the host's
        // adjustments took the same points from every team) has no winner, not every team first; nor has one ended
        // before its first question, whose scores are only the host's adjustments and which the history does not keep.
        let nobodyGained = standings.allSatisfy { $0.correctAnswers == 0 && $0.points <= 0 && $0.rank == 1 }
        let winners = nobodyGained || questionsPlayed == 0 ? [] : standings.filter { $0.rank == 1 }.map(\.team)
        self.init(
            standings: standings, winners: winners,
            questionsPlayed: questionsPlayed, questionCount: questionCount, endedEarly: endedEarly)
    }
}

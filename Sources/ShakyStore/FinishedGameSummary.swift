import Foundation
import TriviaEngine

/// One finished game in the history: when it ended, each team's score and rank, and the winners.
public struct FinishedGameSummary: Codable, Equatable, Sendable {
    /// One team's line in a finished game.
    public struct Team: Codable, Equatable, Sendable {
        /// The team's name as spelled in that game.
        public var name: String
        /// The team's final points.
        public var points: Int
        /// The team's final rank (tied teams share a rank).
        public var rank: Int
        /// Whether the team won (alone or tied).
        public var isWinner: Bool

        /// Creates a team line.
        public init(name: String, points: Int, rank: Int, isWinner: Bool) {
            self.name = name
            self.points = points
            self.rank = rank
            self.isWinner = isWinner
        }
    }

    /// The finished game's database id.
    public var id: Int64
    /// When the game ended (stored to the millisecond).
    public var finishedAt: Date
    /// The teams, best rank first.
    public var teams: [Team]
    /// How the game counts: only played games reach the leaderboard.
    public var kind: FinishedGameKind
    /// The host's score adjustments, by team, with their reasons (from the recorded result).
    public var adjustments: [String: [ScoreAdjustment]]

    /// The names of the winning teams.
    public var winners: [String] { teams.filter(\.isWinner).map(\.name) }

    /// Creates a history entry.
    public init(
        id: Int64, finishedAt: Date, teams: [Team], kind: FinishedGameKind = .played,
        adjustments: [String: [ScoreAdjustment]] = [:]
    ) {
        self.id = id
        self.finishedAt = finishedAt
        self.teams = teams
        self.kind = kind
        self.adjustments = adjustments
    }
}

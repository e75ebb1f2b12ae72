/// A team's record across all finished games, grouped by name ignoring case.
public struct LeaderboardEntry: Codable, Equatable, Sendable {
    /// The team's name, as spelled in its most recent game.
    public var team: String
    /// The number of finished games the team played.
    public var gamesPlayed: Int
    /// The number of those games it won (a shared first place counts as a win).
    public var wins: Int
    /// The sum of its final points over those games.
    public var totalPoints: Int

    /// Creates a leaderboard entry.
    public init(team: String, gamesPlayed: Int, wins: Int, totalPoints: Int) {
        self.team = team
        self.gamesPlayed = gamesPlayed
        self.wins = wins
        self.totalPoints = totalPoints
    }
}

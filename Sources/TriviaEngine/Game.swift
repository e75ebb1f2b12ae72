// Placeholder: the rules engine replaces this file.

/// The state of one game of Shaky Words.
public struct Game: Codable, Equatable, Sendable {
    public init() {}
}

/// The final standings of a finished game.
public struct GameResult: Codable, Equatable, Sendable {
    /// One team's line on the final scoreboard.
    public struct Standing: Codable, Equatable, Sendable {
        public var team: String
        public var points: Int
        public var rank: Int
    }
    public var standings: [Standing]
    public var winners: [String]
}

import TriviaEngine

/// A new game as the runtime takes it: the teams, where its questions come from, and its rules.
public struct NewGameRequest: Sendable, Equatable {
    /// The team names.
    public var teams: [String]
    /// The packs to draw from; `nil` means every pack.
    public var packs: [String]?
    /// How many questions.
    public var questionCount: Int
    /// Which questions may be drawn.
    public var difficulty: DifficultyFilter
    /// The rules.
    public var settings: GameRules
    /// The shuffle's seed; `nil` picks one at random.
    public var seed: UInt64?
    /// End a game still in play first; otherwise such a game refuses the new one.
    public var replace: Bool

    /// Creates a request; everything but the teams has the usual default.
    public init(
        teams: [String], packs: [String]? = nil, questionCount: Int = 10, difficulty: DifficultyFilter = .any,
        settings: GameRules = GameRules(), seed: UInt64? = nil, replace: Bool = false
    ) {
        self.teams = teams
        self.packs = packs
        self.questionCount = questionCount
        self.difficulty = difficulty
        self.settings = settings
        self.seed = seed
        self.replace = replace
    }
}

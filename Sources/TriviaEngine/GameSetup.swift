import ShakyCore

/// Everything needed to start a game.
public struct GameSetup: Codable, Equatable, Sendable {
    /// The team names, in seating order (2–8, unique ignoring case as ``TeamNameKey`` folds it, 1–24 characters after
    /// trimming).
    public var teams: [String]
    /// The questions of the chosen packs; the game draws from those its filter admits.
    public var questionPool: [Question]
    /// How many questions to play (1–50).
    public var questionCount: Int
    /// Which difficulties to draw.
    public var difficulty: DifficultyFilter
    /// Timing and scoring rules.
    public var settings: GameRules
    /// The seed of the game's random generator: the same setup and seed give the same game.
    public var seed: UInt64
    /// Whether this is a demonstration game (`shaky demo`), kept out of the leaderboard.
    public var isDemo: Bool = false

    /// How many teams a game takes.
    public static let teamCountRange = 2...8
    /// How long a team name may be, in characters after trimming.
    public static let teamNameLengthRange = 1...24
    /// The most Unicode code points a team name may hold: 8 for each of its 24 characters (a family emoji is 7, a
    /// letter with two accents 3). It bounds a character stacked with thousands of combining marks, which counts as
    /// one character and costs every screen that draws it.
    public static let teamNameCodePointLimit = 8 * 24
    /// How many questions a game may have.
    public static let questionCountRange = 1...50

    /// Creates a setup.
    public init(
        teams: [String], questionPool: [Question], questionCount: Int, difficulty: DifficultyFilter = .any,
        settings: GameRules = GameRules(), seed: UInt64
    ) {
        self.teams = teams
        self.questionPool = questionPool
        self.questionCount = questionCount
        self.difficulty = difficulty
        self.settings = settings
        self.seed = seed
    }

    /// The questions of the pool that a game with this setup may draw: admitted by the filter, with
    /// text and at least one letter or digit in the answer; a question asked twice (in two packs, or with other
    /// capitals, accents or spacing: ``Question/repeatKey``) counted once, pool order kept.
    public var eligibleQuestions: [Question] {
        var seen: Set<String> = []
        return questionPool.filter { question in
            difficulty.admits(question.difficulty) && question.isPlayable
                && seen.insert(question.repeatKey).inserted
        }
    }

    /// The team names trimmed, after checking every rule on them.
    public func validatedTeamNames() throws(GameSetupError) -> [String] {
        guard Self.teamCountRange.contains(teams.count) else { throw .teamCount(teams.count) }
        var names: [String] = []
        for (index, raw) in teams.enumerated() {
            let name = raw.trimmingWhitespace
            // A name of only spaces, or of a zero-width space, which the history's key trims away too, or of other
            // characters that show nothing (a zero-width joiner, a word joiner, a variation selector).
            guard !TeamNameKey.of(name).isEmpty, !name.withoutCharactersThatDoNotShow.trimmingWhitespace.isEmpty else {
                throw .emptyTeamName(position: index + 1)
            }
            // First: the refusal of a name too long repeats it, which it must not for thousands of code points.
            guard name.unicodeScalars.count <= Self.teamNameCodePointLimit else {
                throw .teamNameTooComplex(position: index + 1, codePoints: name.unicodeScalars.count)
            }
            guard name.count <= Self.teamNameLengthRange.upperBound else {
                throw .teamNameTooLong(name, length: name.count)
            }
            // Also by what shows: "Owls" and "Ow\u{200B}ls" (a zero-width space inside) read the same on every screen.
            let shown = TeamNameKey.of(name.withoutCharactersThatDoNotShow)
            if let earlier = names.first(where: {
                TeamNameKey.of($0) == TeamNameKey.of(name) || TeamNameKey.of($0.withoutCharactersThatDoNotShow) == shown
            }) {
                throw .duplicateTeamName(earlier, name)
            }
            names.append(name)
        }
        return names
    }
}

/// Why a game cannot start with a setup.
public enum GameSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not 2–8 teams.
    case teamCount(Int)
    /// A team name is empty or only whitespace and characters that do not show; `position` is 1-based.
    case emptyTeamName(position: Int)
    /// A team name is longer than 24 characters after trimming.
    case teamNameTooLong(String, length: Int)
    /// A team name holds more than ``GameSetup/teamNameCodePointLimit`` code points (marks stacked on its letters);
    /// `position` is 1-based. The name is not repeated: it may be thousands of code points long.
    case teamNameTooComplex(position: Int, codePoints: Int)
    /// Two team names are equal ignoring case and the characters that do not show.
    case duplicateTeamName(String, String)
    /// The question count is not 1–50.
    case questionCount(Int)
    /// The pool holds fewer eligible questions than asked for.
    case notEnoughQuestions(requested: Int, eligible: Int, difficulty: DifficultyFilter)
    /// The settings are not playable.
    case settings(GameRulesError)

    /// A message a host can act on.
    public var description: String {
        switch self {
        case .teamCount(let count):
            "a game needs \(GameSetup.teamCountRange.lowerBound) to \(GameSetup.teamCountRange.upperBound) teams, not \(count)"
        case .emptyTeamName(let position):
            "team \(position) has no name that shows: give it letters, digits or emoji"
        case .teamNameTooLong(let name, let length):
            "team name \"\(name)\" is \(length) characters long; at most \(GameSetup.teamNameLengthRange.upperBound) are allowed"
        case .teamNameTooComplex(let position, let codePoints):
            "team \(position)'s name holds \(codePoints) Unicode code points (marks stacked on its letters); at most "
                + "\(GameSetup.teamNameCodePointLimit) are allowed"
        case .duplicateTeamName(let first, let second):
            "team names \"\(first)\" and \"\(second)\" are the same ignoring case and characters that do not show "
                + "(zero-width spaces and joiners)"
        case .questionCount(let count):
            "a game has \(GameSetup.questionCountRange.lowerBound) to \(GameSetup.questionCountRange.upperBound) questions, not \(count)"
        case .notEnoughQuestions(let requested, let eligible, let difficulty):
            "asked for \(requested) questions but the chosen packs hold only \(eligible) eligible "
                + "question\(eligible == 1 ? "" : "s") (difficulty: \(difficulty.rawValue))"
        case .settings(let error):
            error.description
        }
    }
}

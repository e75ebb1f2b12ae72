import ShakyCore

/// How hard a question is.
public enum Difficulty: String, Codable, CaseIterable, Sendable, Comparable {
    case easy
    case medium
    case hard

    public static func < (lhs: Difficulty, rhs: Difficulty) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which questions a game draws from.
public enum DifficultyFilter: String, Codable, CaseIterable, Sendable {
    case any
    case easy
    case medium
    case hard

    /// Whether a question of `difficulty` passes this filter.
    public func admits(_ difficulty: Difficulty) -> Bool {
        switch self {
        case .any: true
        case .easy: difficulty == .easy
        case .medium: difficulty == .medium
        case .hard: difficulty == .hard
        }
    }
}

/// One quiz question: the text read out, the answer whose letters are scrambled, and
/// other spellings that also count as right.
public struct Question: Codable, Hashable, Sendable {
    /// The question as shown and read aloud.
    public var text: String
    /// The answer; its letters are what the players see scrambled.
    public var answer: String
    /// Other answers accepted as correct (e.g. "UK" for "United Kingdom").
    public var alternates: [String]
    /// How hard the question is.
    public var difficulty: Difficulty

    /// Creates a question.
    public init(text: String, answer: String, alternates: [String] = [], difficulty: Difficulty) {
        self.text = text
        self.answer = answer
        self.alternates = alternates
        self.difficulty = difficulty
    }
}

extension Question {
    /// Whether the question can be played: it has text and its answer has a letter or digit to show.
    public var isPlayable: Bool {
        !text.trimmingWhitespace.isEmpty && answer.contains(where: Scramble.isScrambled)
    }
}

extension Question {
    /// What tells a question from a repeat of it (in two packs, or twice in one file): its text and answer, folded
    /// (``TextFold/fold(_:)``: case, accents and how spaces fall do not count).
    public var repeatKey: String {
        TextFold.fold(text) + "\n" + TextFold.fold(answer)
    }
}

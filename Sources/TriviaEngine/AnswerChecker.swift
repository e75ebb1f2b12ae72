import Foundation

/// Decides whether a given answer counts as right, the way the game does.
///
/// Both sides are normalised first: Unicode compatibility composition (NFKC), case folding,
/// punctuation dropped (dashes, slashes and underscores become spaces, so "Guinea-Bissau" reads as two
/// words), whitespace collapsed, and optionally diacritics removed ("Hà Nội" → "ha noi", including
/// letters that carry no decomposable mark: "ø" → "o", "đ" → "d", "æ" → "ae", "ß" → "ss").
/// Then an exact match is accepted, or with tolerance on a restricted Damerau–Levenshtein distance
/// (optimal string alignment: insertions, deletions, substitutions and swaps of two neighbours, each
/// counting 1, no substring edited twice) over grapheme clusters within `allowedDistance(letterCount:)`,
/// where the letters counted are those of the expected answer as written (grapheme clusters that are
/// letters or digits, so "Ærø" has 3 and must match exactly).
public struct AnswerChecker: Codable, Equatable, Sendable {
    /// Whether near misses count.
    public var tolerance: Bool
    /// Whether accents and similar marks are ignored.
    public var ignoresDiacritics: Bool

    /// Creates a checker.
    public init(tolerance: Bool = true, ignoresDiacritics: Bool = true) {
        self.tolerance = tolerance
        self.ignoresDiacritics = ignoresDiacritics
    }

    /// Creates the checker a game with `settings` uses.
    public init(settings: GameSettings) {
        self.init(tolerance: settings.answerTolerance, ignoresDiacritics: settings.ignoreDiacritics)
    }

    /// Whether `given` counts as a right answer to `question` (its answer or any alternate).
    public func accepts(_ given: String, for question: Question) -> Bool {
        ([question.answer] + question.alternates).contains { accepts(given, expected: $0) }
    }

    /// Whether `given` counts as `expected`.
    public func accepts(_ given: String, expected: String) -> Bool {
        let expectedForm = normalize(expected)
        let givenForm = normalize(given)
        guard !expectedForm.isEmpty, !givenForm.isEmpty else { return false }
        if givenForm == expectedForm { return true }
        guard tolerance else { return false }
        let allowed = Self.allowedDistance(letterCount: expected.count(where: Scramble.isScrambled))
        guard allowed > 0 else { return false }
        return Self.distance(Array(givenForm), Array(expectedForm)) <= allowed
    }

    /// The edit distance tolerated for an answer of `letterCount` letters: 0 up to 3, 1 for 4–7, 2 from 8.
    public static func allowedDistance(letterCount: Int) -> Int {
        switch letterCount {
        case ...3: 0
        case 4...7: 1
        default: 2
        }
    }

    /// The form both answers are compared in.
    public func normalize(_ text: String) -> String {
        var folded = text.precomposedStringWithCompatibilityMapping
        var options: String.CompareOptions = [.caseInsensitive]
        if ignoresDiacritics {
            options.insert(.diacriticInsensitive)
        }
        folded = folded.folding(options: options, locale: nil).lowercased()
        if ignoresDiacritics {
            folded = String(folded.flatMap { Self.unmarkedLetters[$0] ?? String($0) })
        }
        var result = ""
        var pendingSpace = false
        for character in folded {
            if character.isLetter || character.isNumber {
                if pendingSpace && !result.isEmpty {
                    result.append(" ")
                }
                pendingSpace = false
                result.append(character)
            } else if character.isWhitespace || Self.wordBreakingPunctuation.contains(character) {
                pendingSpace = true
            }
        }
        return result.precomposedStringWithCompatibilityMapping
    }

    /// Punctuation that separates words rather than sitting inside one.
    private static let wordBreakingPunctuation: Set<Character> = [
        "-", "‐", "‑", "‒", "–", "—", "―", "/", "_", "\\", "|", "+", "&", ",", ";", ":", "·",
    ]

    /// Lower-case letters whose marks do not decompose, spelled without them.
    private static let unmarkedLetters: [Character: String] = [
        "ø": "o", "đ": "d", "ð": "d", "ł": "l", "ħ": "h", "ı": "i", "ŧ": "t",
        "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th",
    ]

    /// The optimal-string-alignment distance between two sequences of grapheme clusters.
    public static func distance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        let columns = rhs.count + 1
        var previousPrevious = [Int](repeating: 0, count: columns)
        var previous = Array(0..<columns)
        var current = [Int](repeating: 0, count: columns)
        for row in 1...lhs.count {
            current[0] = row
            for column in 1...rhs.count {
                let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
                var best = min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost)
                if row > 1, column > 1, lhs[row - 1] == rhs[column - 2], lhs[row - 2] == rhs[column - 1] {
                    best = min(best, previousPrevious[column - 2] + 1)
                }
                current[column] = best
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[rhs.count]
    }
}

import Foundation

/// Decides whether a given answer counts as right, the way the game does.
///
/// Both sides are normalised first: Unicode compatibility composition (NFKC), case folding,
/// punctuation dropped (dashes, slashes and underscores become spaces, so "Guinea-Bissau" reads as two
/// words), whitespace collapsed, and optionally diacritics removed ("Hà Nội" → "ha noi", including
/// letters that carry no decomposable mark: "ø" → "o", "đ" → "d", "æ" → "ae", "ß" → "ss").
///
/// Then an exact match is accepted, or, with tolerance, a typo of the same word, but never another
/// word. A typo is a swap of two neighbouring letters, a doubled letter or one of a double missing
/// (anywhere), a missing, extra or wrong letter *inside* a word (never its first or last letter:
/// "Sienna" is not "Vienna", "Mary" is not "Mars", "eighty" is not "Eight"), or a letter differing only
/// in its accent. Each word of the answer takes at most `allowedDistance(letterCount:)` typos for its
/// own letters, and the whole answer at most that for all its letters (grapheme clusters that are
/// letters or digits, as written, so "Ærø" has 3 and must match exactly). Numbers and number words
/// ("7", "seven", "eighty") must match exactly. When the word counts differ ("NewYork"), the answers are
/// compared without spaces, as one word.
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
    public init(settings: GameRules) {
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
        let expectedWords = expectedForm.split(separator: " ").map(Array.init)
        let givenWords = givenForm.split(separator: " ").map(Array.init)
        guard expectedWords.count == givenWords.count else {
            // A space too many or too few: one word each, and no numbers involved.
            guard !(expectedWords + givenWords).contains(where: Self.isNumber) else { return false }
            let typos = Self.typoCount(Array(givenWords.joined()), Array(expectedWords.joined()))
            return typos.total <= allowed && typos.letters <= allowed
        }
        var total = 0
        for (givenWord, expectedWord) in zip(givenWords, expectedWords) where givenWord != expectedWord {
            guard !Self.isNumber(givenWord), !Self.isNumber(expectedWord) else { return false }
            let typos = Self.typoCount(givenWord, expectedWord)
            guard typos.letters <= Self.allowedDistance(letterCount: expectedWord.count) else { return false }
            total += typos.total
            guard total <= allowed else { return false }
        }
        return true
    }

    /// Whether a normalised word is a number: it holds a digit, or it is an English number word.
    static func isNumber(_ word: [Character]) -> Bool {
        word.contains(where: \.isNumber) || numberWords.contains(String(word))
    }

    /// Number words (normalised), which must match exactly.
    static let numberWords: Set<String> = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty",
        "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion",
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ]

    /// The typos that turn `expected` into `given`, or `Int.max / 4` for both counts when `given` is
    /// another word (an edit at a word's first or last letter that is not a swap, a double or an accent).
    /// `letters` counts typos other than accent-only differences; `total` counts them all.
    static func typoCount(_ given: [Character], _ expected: [Character]) -> (letters: Int, total: Int) {
        let letters = typoDistance(given, expected, accentCost: 0)
        let total = typoDistance(given, expected, accentCost: 1)
        return (letters, total)
    }

    /// The cheapest alignment of `given` to `expected` using only the edits a typo makes, each costing
    /// 1 (an accent-only substitution costs `accentCost`); optimal string alignment, so no letter is
    /// edited twice.
    static func typoDistance(_ given: [Character], _ expected: [Character], accentCost: Int) -> Int {
        let impossible = Int.max / 4
        let rows = given.count
        let columns = expected.count
        let last = columns - 1
        var table = [[Int]](repeating: [Int](repeating: impossible, count: columns + 1), count: rows + 1)
        table[0][0] = 0
        func isDouble(_ word: [Character], _ index: Int) -> Bool {
            (index > 0 && word[index - 1] == word[index]) || (index + 1 < word.count && word[index + 1] == word[index])
        }
        for row in 0...rows {
            for column in 0...columns {
                var best = table[row][column]
                if row > 0, column > 0 {
                    let (g, e) = (given[row - 1], expected[column - 1])
                    if g == e {
                        best = min(best, table[row - 1][column - 1])
                    } else if baseLetter(g) == baseLetter(e) {
                        best = min(best, table[row - 1][column - 1] + accentCost)
                    } else if column - 1 > 0, column - 1 < last {
                        best = min(best, table[row - 1][column - 1] + 1)
                    }
                    if row > 1, column > 1, g == expected[column - 2], given[row - 2] == e {
                        best = min(best, table[row - 2][column - 2] + 1)
                    }
                }
                // A letter of the expected word missing: inside the word, or one of a double.
                if column > 0, (column - 1 > 0 && column - 1 < last) || isDouble(expected, column - 1) {
                    best = min(best, table[row][column - 1] + 1)
                }
                // An extra letter: inside the word, or a doubled letter.
                if row > 0, (column > 0 && column < columns) || isDouble(given, row - 1) {
                    best = min(best, table[row - 1][column] + 1)
                }
                table[row][column] = min(best, impossible)
            }
        }
        return table[rows][columns]
    }

    /// A letter without its accent, for telling accent-only differences from other letters.
    static func baseLetter(_ letter: Character) -> String {
        let lowered = String(letter).lowercased()
        if let plain = unmarkedLetters[Character(lowered)] { return plain }
        return lowered.folding(options: [.diacriticInsensitive], locale: nil)
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

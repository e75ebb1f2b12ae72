/// An answer with its letters shuffled, as the players see it, and the hints placed so far.
///
/// Letters are grapheme clusters (`Character`), so "ệ" or "ø" always move as one. Only letters and
/// digits are shuffled, across all words of the answer; spaces and punctuation keep their places.
/// Letters are shown upper-cased where that keeps them one character ("ß" stays "ß").
/// The shown arrangement never equals the answer when another arrangement of its letters exists.
public struct Scramble: Codable, Equatable, Sendable {
    /// The answer as it is displayed, one entry per character: letters upper-cased, the rest as is.
    public let solution: [String]
    /// The positions in `solution` that hold letters or digits, in reading order.
    public let letterPositions: [Int]
    /// What is shown at each position now.
    public private(set) var shown: [String]
    /// How many letter positions, from the first, hints have fixed.
    public private(set) var fixedCount: Int

    /// Scrambles `answer`, drawing from `random`.
    public init(answer: String, using random: inout SeededRandomGenerator) {
        let characters = Array(answer)
        solution = characters.map { Self.displayForm(of: $0) }
        letterPositions = characters.indices.filter { Self.isScrambled(characters[$0]) }
        shown = solution
        fixedCount = 0
        reshuffleUnfixed(using: &random)
    }

    /// Whether a character takes part in the scramble (letters and digits) or stays in place.
    public static func isScrambled(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// The letter as displayed: upper-cased when that keeps it a single character.
    static func displayForm(of character: Character) -> String {
        guard isScrambled(character) else { return String(character) }
        let upper = character.uppercased()
        return upper.count == 1 ? upper : String(character)
    }

    /// The number of letters and digits in the answer.
    public var letterCount: Int { letterPositions.count }

    /// How many hints this answer can take at most: after the last one at least two different
    /// letters are still unplaced, so the display never spells out the answer.
    public var hintCapacity: Int {
        let letters = letterPositions.map { solution[$0] }
        var distinctFromEnd: Set<String> = []
        // Walk back from the end; the first index whose suffix holds two distinct letters bounds the hints.
        for index in letters.indices.reversed() {
            distinctFromEnd.insert(letters[index])
            if distinctFromEnd.count >= 2 {
                return index
            }
        }
        return 0
    }

    /// Whether the shown letters spell the answer.
    public var showsAnswer: Bool { shown == solution }

    /// The answer as displayed (letters upper-cased).
    public var solutionText: String { solution.joined() }

    /// Fixes the next letter of the answer in its place and reshuffles the letters not yet fixed.
    ///
    /// Returns `false`, changing nothing, when that would leave fewer than two different letters unplaced.
    @discardableResult
    public mutating func revealNextLetter(using random: inout SeededRandomGenerator) -> Bool {
        guard fixedCount < hintCapacity else { return false }
        let position = letterPositions[fixedCount]
        shown[position] = solution[position]
        fixedCount += 1
        reshuffleUnfixed(using: &random)
        return true
    }

    /// Shuffles the letters of the unfixed positions; when the shuffle lands on the answer and another
    /// order exists, swaps two different letters so that it does not.
    private mutating func reshuffleUnfixed(using random: inout SeededRandomGenerator) {
        let open = Array(letterPositions[fixedCount...])
        var letters = open.map { solution[$0] }
        random.shuffle(&letters)
        if letters == open.map({ solution[$0] }), let first = letters.first,
            let other = letters.firstIndex(where: { $0 != first })
        {
            letters.swapAt(0, other)
        }
        for (position, letter) in zip(open, letters) {
            shown[position] = letter
        }
    }

    /// The view clients draw.
    public var display: ScrambleDisplay {
        let fixed = Set(letterPositions.prefix(fixedCount))
        let letterSet = Set(letterPositions)
        let tiles = shown.indices.map { index in
            ScrambleDisplay.Tile(
                text: shown[index], isLetter: letterSet.contains(index), isFixed: fixed.contains(index))
        }
        return ScrambleDisplay(tiles: tiles)
    }
}

/// What the players see of a scrambled answer: one tile per character, in order.
public struct ScrambleDisplay: Codable, Equatable, Sendable {
    /// One character of the display.
    public struct Tile: Codable, Equatable, Sendable {
        /// The character shown (one grapheme cluster).
        public var text: String
        /// Whether this is a letter or digit slot (otherwise a space or punctuation, always in place).
        public var isLetter: Bool
        /// Whether a hint has fixed this letter in its right place.
        public var isFixed: Bool

        /// Creates a tile.
        public init(text: String, isLetter: Bool, isFixed: Bool) {
            self.text = text
            self.isLetter = isLetter
            self.isFixed = isFixed
        }
    }

    /// The tiles in reading order.
    public var tiles: [Tile]

    /// Creates a display from its tiles.
    public init(tiles: [Tile]) {
        self.tiles = tiles
    }

    /// The shown letters with spaces and punctuation in place, e.g. "KROW YNE".
    public var text: String { tiles.map(\.text).joined() }

    /// The shape of the answer with a blank per letter and words split by a slash, e.g. `_ _ _ / _ _ _ _`;
    /// punctuation is shown as itself.
    public var pattern: String {
        words.map { word in word.map { $0.isLetter ? "_" : $0.text }.joined(separator: " ") }
            .joined(separator: " / ")
    }

    /// The number of letters in each word.
    public var wordLengths: [Int] {
        words.map { word in word.filter(\.isLetter).count }
    }

    /// The tiles grouped into words, split at whitespace.
    private var words: [[Tile]] {
        tiles.split(whereSeparator: { !$0.isLetter && $0.text.allSatisfy(\.isWhitespace) }).map(Array.init)
    }
}

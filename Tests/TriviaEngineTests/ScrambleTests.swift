import Testing
import TriviaEngine

@Suite("Scramble")
struct ScrambleTests {
    static let answers = [
        "Copenhagen", "Ærø", "Hà Nội", "Đà Nẵng", "Nghệ An", "New York City", "Guinea-Bissau", "St. Petersburg",
        "Abba", "AB", "Mississippi", "R2-D2", "Straße",
    ]

    /// The letters of a scramble's letter positions, sorted, for comparing as multisets.
    private func letters(_ values: [String], at positions: [Int]) -> [String] {
        positions.map { values[$0] }.sorted()
    }

    @Test(arguments: answers)
    func keepsLettersSeparatorsAndNeverShowsTheAnswer(answer: String) {
        for seed in UInt64(0)..<300 {
            var random = SeededRandomGenerator(seed: seed)
            let scramble = Scramble(answer: answer, using: &random)
            #expect(scramble.shown.count == answer.count)
            #expect(
                letters(scramble.shown, at: scramble.letterPositions)
                    == letters(scramble.solution, at: scramble.letterPositions))
            let separators = Set(scramble.solution.indices).subtracting(scramble.letterPositions)
            #expect(separators.allSatisfy { scramble.shown[$0] == scramble.solution[$0] })
            #expect(!scramble.showsAnswer, "seed \(seed) showed \(answer)")
            #expect(scramble.display.tiles.allSatisfy { $0.text.count == 1 })
        }
    }

    @Test func letterWithTwoMarksStaysOneTile() {
        var random = SeededRandomGenerator(seed: 3)
        let decomposed = "Nghe\u{0323}\u{0302} An"  // "ệ" typed as e + dot below + circumflex
        let scramble = Scramble(answer: decomposed, using: &random)
        #expect(scramble.letterCount == 6)
        #expect(scramble.display.tiles.filter(\.isLetter).map(\.text).contains("Ệ"))
        #expect(scramble.display.pattern == "_ _ _ _ / _ _")
    }

    @Test func upperCasesLettersButKeepsThoseThatWouldGrow() {
        var random = SeededRandomGenerator(seed: 1)
        let scramble = Scramble(answer: "Straße", using: &random)
        #expect(scramble.solution == ["S", "T", "R", "A", "ß", "E"])
        #expect(scramble.solutionText == "STRAßE")
    }

    @Test func patternShowsWordLengthsAndPunctuation() {
        var random = SeededRandomGenerator(seed: 1)
        let cases: [(String, String, [Int])] = [
            ("New York", "_ _ _ / _ _ _ _", [3, 4]),
            ("Hà Nội", "_ _ / _ _ _", [2, 3]),
            ("Guinea-Bissau", "_ _ _ _ _ _ - _ _ _ _ _ _", [12]),
            ("St. Petersburg", "_ _ . / _ _ _ _ _ _ _ _ _ _", [2, 10]),
            ("Ærø", "_ _ _", [3]),
        ]
        for (answer, pattern, lengths) in cases {
            let display = Scramble(answer: answer, using: &random).display
            #expect(display.pattern == pattern, "\(answer)")
            #expect(display.wordLengths == lengths, "\(answer)")
        }
    }

    @Test func multiWordAnswerMixesLettersAcrossWordsButKeepsSpaces() {
        var crossed = false
        for seed in UInt64(0)..<50 {
            var random = SeededRandomGenerator(seed: seed)
            let scramble = Scramble(answer: "New York", using: &random)
            #expect(scramble.shown[3] == " ")
            let firstWord = Set(scramble.shown[0..<3])
            crossed = crossed || !firstWord.isSubset(of: ["N", "E", "W"])
        }
        #expect(crossed, "letters never moved between words")
    }

    @Test func answerWithOneDistinctLetterCannotBeScrambledNorHinted() {
        var random = SeededRandomGenerator(seed: 9)
        var scramble = Scramble(answer: "AAA", using: &random)
        #expect(scramble.showsAnswer)
        #expect(scramble.hintCapacity == 0)
        let revealed = scramble.revealNextLetter(using: &random)
        #expect(!revealed)
    }

    @Test func hintCapacityLeavesTwoDifferentLettersUnplaced() {
        var random = SeededRandomGenerator(seed: 1)
        let capacities: [(String, Int)] = [
            ("AB", 0), ("ABC", 1), ("Oslo", 2), ("Abba", 2), ("Hà Nội", 3), ("Mississippi", 9),
        ]
        for (answer, capacity) in capacities {
            #expect(Scramble(answer: answer, using: &random).hintCapacity == capacity, "\(answer)")
        }
    }

    @Test(arguments: answers)
    func everyRevealFixesTheNextLetterAndStillHidesTheAnswer(answer: String) {
        for seed in UInt64(0)..<100 {
            var random = SeededRandomGenerator(seed: seed)
            var scramble = Scramble(answer: answer, using: &random)
            var revealed = 0
            while scramble.revealNextLetter(using: &random) {
                revealed += 1
                #expect(scramble.fixedCount == revealed)
                for position in scramble.letterPositions.prefix(revealed) {
                    #expect(scramble.shown[position] == scramble.solution[position])
                }
                #expect(!scramble.showsAnswer)
                #expect(scramble.display.tiles.filter(\.isFixed).count == revealed)
            }
            #expect(revealed == scramble.hintCapacity)
        }
    }

    @Test func sameSeedSameScramble() {
        var first = SeededRandomGenerator(seed: 2024)
        var second = SeededRandomGenerator(seed: 2024)
        #expect(Scramble(answer: "Đà Nẵng", using: &first) == Scramble(answer: "Đà Nẵng", using: &second))
        #expect(first == second)
    }

    @Test func generatorIsUniformEnoughAndBounded() {
        var random = SeededRandomGenerator(seed: 5)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<6000 {
            counts[random.next(below: 6)] += 1
        }
        #expect(counts.allSatisfy { (800...1200).contains($0) }, "\(counts)")
    }
}

import Testing
import TriviaEngine

@Suite("Answer checking")
struct AnswerCheckerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var expected: String
        var given: String
        var tolerance = true
        var ignoresDiacritics = true
        var accepted: Bool
        var testDescription: String {
            "\"\(given)\" for \"\(expected)\" (tolerance \(tolerance), ignore marks \(ignoresDiacritics)) → \(accepted)"
        }
    }

    static let table: [Case] = [
        // Exact after normalising: case, spacing, punctuation, compatibility forms.
        Case(expected: "Paris", given: "  PARIS! ", accepted: true),
        Case(expected: "Paris", given: "ＰＡＲＩＳ", accepted: true),
        Case(expected: "New York", given: "new   york", accepted: true),
        Case(expected: "Guinea-Bissau", given: "Guinea Bissau", accepted: true),
        Case(expected: "St. Petersburg", given: "st petersburg", accepted: true),
        Case(expected: "Paris", given: "", accepted: false),
        Case(expected: "Paris", given: "?!", accepted: false),
        // Up to 3 letters: exact only.
        Case(expected: "Spa", given: "spa.", accepted: true),
        Case(expected: "Spa", given: "Spy", accepted: false),
        Case(expected: "Ulm", given: "Ul", accepted: false),
        // 4–7 letters: one edit.
        Case(expected: "Paris", given: "Pars", accepted: true),
        Case(expected: "Paris", given: "Pari", accepted: false),  // a missing last letter: another word
        Case(expected: "Paris", given: "Parsi", accepted: true),
        Case(expected: "Oslo", given: "Olso", accepted: true),
        Case(expected: "Rome", given: "Roma", accepted: false),
        Case(expected: "Rome", given: "Roome", accepted: true),
        Case(expected: "Paris", given: "Prias", accepted: false),
        Case(expected: "Paris", given: "Pars", tolerance: false, accepted: false),
        // 8 or more letters: two edits.
        Case(expected: "Copenhagen", given: "Copenahgn", accepted: true),
        Case(expected: "Copenhagen", given: "Kopenhagen", accepted: false),  // first letter: another word
        Case(expected: "Copenhagen", given: "Kobenhagn", accepted: false),
        Case(expected: "Copenhagen", given: "Copenhagn", tolerance: false, accepted: false),
        // Non-ASCII answers.
        Case(expected: "Hà Nội", given: "Ha Noi", accepted: true),
        Case(expected: "Hà Nội", given: "HÀ NỘI", ignoresDiacritics: false, accepted: true),
        Case(expected: "Hà Nội", given: "Ha\u{0300} No\u{0302}\u{0323}i", ignoresDiacritics: false, accepted: true),
        Case(expected: "Hà Nội", given: "Ha Nội", ignoresDiacritics: false, accepted: true),
        Case(expected: "Hà Nội", given: "Ha Noi", ignoresDiacritics: false, accepted: false),
        Case(expected: "Hà Nội", given: "Ha Nội", tolerance: false, ignoresDiacritics: false, accepted: false),
        Case(expected: "Đà Nẵng", given: "da nang", accepted: true),
        Case(expected: "Ærø", given: "Aero", accepted: true),
        Case(expected: "Ærø", given: "Aro", accepted: false),  // 3 letters as written: exact only
        Case(expected: "Ærø", given: "Aero", ignoresDiacritics: false, accepted: false),
        Case(expected: "Ærø", given: "ærø", ignoresDiacritics: false, accepted: true),
        Case(expected: "Ærø", given: "Æro", ignoresDiacritics: false, accepted: false),
        Case(expected: "Tromsø", given: "Tromso", ignoresDiacritics: false, accepted: true),
        Case(expected: "Tromsø", given: "Tromsø", ignoresDiacritics: false, accepted: true),
        Case(expected: "Straße", given: "Strasse", accepted: true),
        Case(expected: "Nghệ An", given: "Nghe An", accepted: true),
        Case(expected: "Nghệ An", given: "Nghê An", ignoresDiacritics: false, accepted: true),
        Case(expected: "Nghệ An", given: "Nghe Anh", ignoresDiacritics: false, accepted: false),
        // Other scripts, Turkish and German letters, digraphs, apostrophes and hyphens.
        Case(expected: "東京", given: "tokyo", accepted: false),
        Case(expected: "東京", given: "東京", tolerance: false, ignoresDiacritics: false, accepted: true),
        Case(expected: "東京", given: "東", accepted: false),
        Case(expected: "İstanbul", given: "istanbul", tolerance: false, accepted: true),
        Case(expected: "İstanbul", given: "ISTANBUL", tolerance: false, accepted: true),
        Case(expected: "İstanbul", given: "İSTANBUL", tolerance: false, ignoresDiacritics: false, accepted: true),
        Case(expected: "İstanbul", given: "istanbul", ignoresDiacritics: false, accepted: true),
        Case(expected: "Straße", given: "STRASSE", tolerance: false, accepted: true),
        Case(expected: "Straße", given: "strasse", tolerance: false, ignoresDiacritics: false, accepted: true),
        Case(expected: "ǅemal", given: "Džemal", tolerance: false, ignoresDiacritics: false, accepted: true),
        Case(expected: "ǅemal", given: "dzemal", tolerance: false, accepted: true),
        Case(expected: "naïve café", given: "naive cafe", tolerance: false, accepted: true),
        Case(
            expected: "naïve café", given: "NAI\u{308}VE CAFE\u{301}", tolerance: false, ignoresDiacritics: false,
            accepted: true),
        Case(expected: "rock 'n' roll", given: "rock n roll", tolerance: false, accepted: true),
        Case(expected: "rock 'n' roll", given: "rock ’n’ roll", tolerance: false, accepted: true),
        Case(expected: "rock 'n' roll", given: "rock'n'roll", accepted: true),  // one word: compared without spaces
        Case(expected: "rock 'n' roll", given: "rock and roll", accepted: false),
        Case(expected: "Jean-Luc", given: "jean luc", tolerance: false, accepted: true),
        Case(expected: "Jean-Luc", given: "JeanLuc", accepted: true),
        Case(expected: "Jean-Luc", given: "Jean", accepted: false),
    ]

    @Test(arguments: table)
    func tolerance(_ entry: Case) {
        let checker = AnswerChecker(tolerance: entry.tolerance, ignoresDiacritics: entry.ignoresDiacritics)
        #expect(checker.accepts(entry.given, expected: entry.expected) == entry.accepted)
    }

    @Test(arguments: NearMissTable.typos.map { [$0.expected, $0.given] })
    func typosCount(_ pair: [String]) {
        #expect(AnswerChecker().accepts(pair[1], expected: pair[0]), "\"\(pair[1])\" is a typo of \(pair[0])")
    }

    @Test(arguments: NearMissTable.otherWords.map { [$0.expected, $0.given] })
    func otherWordsDoNotCount(_ pair: [String]) {
        #expect(!AnswerChecker().accepts(pair[1], expected: pair[0]), "\"\(pair[1])\" is not \(pair[0])")
    }

    @Test func theNearMissTableHasAtLeastAHundredPairs() {
        #expect(NearMissTable.typos.count + NearMissTable.otherWords.count >= 100)
    }

    @Test func allowedDistanceByAnswerLength() {
        let table = [1: 0, 3: 0, 4: 1, 7: 1, 8: 2, 20: 2]
        for (letters, distance) in table {
            #expect(AnswerChecker.allowedDistance(letterCount: letters) == distance, "\(letters) letters")
        }
    }

    @Test func distanceIsOptimalStringAlignmentOverGraphemes() {
        #expect(AnswerChecker.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(AnswerChecker.distance(Array("abcd"), Array("acbd")) == 1)
        // Optimal string alignment edits no substring twice: "ca" → "abc" costs 3, not 2.
        #expect(AnswerChecker.distance(Array("ca"), Array("abc")) == 3)
        #expect(AnswerChecker.distance(Array("nội"), Array("noi")) == 1)
        #expect(AnswerChecker.distance([], Array("abc")) == 3)
    }

    @Test func alternatesCountAsRight() {
        let question = Question(text: "Which country?", answer: "United Kingdom", alternates: ["UK"], difficulty: .easy)
        let checker = AnswerChecker()
        #expect(checker.accepts("U.K.", for: question))
        #expect(checker.accepts("united kingdm", for: question))
        #expect(!checker.accepts("US", for: question))
    }

    @Test func gameSettingsChooseTheChecker() {
        let checker = AnswerChecker(settings: GameRules(answerTolerance: false, ignoreDiacritics: false))
        #expect(checker == AnswerChecker(tolerance: false, ignoresDiacritics: false))
    }
}

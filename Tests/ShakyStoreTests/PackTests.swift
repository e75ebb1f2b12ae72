import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct PackTests {
    private let cat = Question(text: "Which pet purrs?", answer: "Cat", difficulty: .easy)
    private let owl = Question(text: "Which bird hoots?", answer: "Owl", alternates: ["Owls"], difficulty: .medium)
    private let ant = Question(text: "Which insect lives in colonies?", answer: "Ant", difficulty: .hard)

    @Test func createsListsAndShowsACustomPack() throws {
        let database = try AppDatabase.inMemory()
        let created = try database.createPack(named: "  Pets ")
        #expect(created.name == "Pets")
        #expect(!created.isBuiltin)
        #expect(created.questionCount == 0)
        try database.addQuestion(cat, toPack: "pets")
        try database.addQuestion(owl, toPack: "PETS")
        try database.addQuestion(ant, toPack: "Pets")

        let summary = try #require(try database.packs().first)
        #expect(summary.name == "Pets")
        #expect([summary.easyCount, summary.mediumCount, summary.hardCount] == [Int](repeating: 1, count: 3))
        #expect(summary.count(passing: .any) == 3)
        #expect(summary.count(passing: .medium) == 1)
        #expect(try database.pack(named: "pets").questions.map(\.question) == [cat, owl, ant])
    }

    @Test func refusesDuplicateAndInvalidPackNames() throws {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Pets")
        try database.createPack(named: "Ærø Facts")
        #expect(throws: StoreError.duplicatePackName("Pets")) { try database.createPack(named: "PETS") }
        // Case folding beyond ASCII, which SQLite's NOCASE does not do.
        #expect(throws: StoreError.duplicatePackName("Ærø Facts")) { try database.createPack(named: "ÆRØ FACTS") }
        #expect(throws: StoreError.invalidPackName("   ", problem: "the name is empty")) {
            try database.createPack(named: "   ")
        }
        // Nothing that shows: a zero-width space and a word joiner.
        #expect(throws: StoreError.invalidPackName("\u{200B} \u{2060}", problem: "the name is empty")) {
            try database.createPack(named: "\u{200B} \u{2060}")
        }
        #expect(throws: StoreError.self) { try database.createPack(named: String(repeating: "x", count: 61)) }
        #expect(try database.packs().count == 2)
    }

    @Test func renamesAndDeletesACustomPack() throws {
        let database = try StoreFixtures.database(withPack: "Pets", questions: [cat])
        try database.createPack(named: "Birds")
        try database.renamePack("pets", to: "Animals at Home")
        #expect(try database.pack(named: "Animals at Home").questions.count == 1)
        #expect(throws: StoreError.packNotFound("Pets")) { try database.pack(named: "Pets") }
        #expect(throws: StoreError.duplicatePackName("Birds")) {
            try database.renamePack("Animals at Home", to: "BIRDS")
        }
        // Changing only the case of its own name is allowed.
        try database.renamePack("Birds", to: "BIRDS")
        #expect(try database.packs().map(\.name) == ["Animals at Home", "BIRDS"])

        try database.deletePack(named: "animals at home")
        #expect(try database.packs().map(\.name) == ["BIRDS"])
        #expect(throws: StoreError.packNotFound("Nope")) { try database.deletePack(named: "Nope") }
    }

    @Test func editsAndDeletesQuestions() throws {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Pets")
        let stored = try database.addQuestion(cat, toPack: "Pets")
        #expect(stored.packName == "Pets")

        let edited = try database.updateQuestion(
            id: stored.id,
            to: Question(text: "Which pet barks?", answer: " Dog ", alternates: ["Hound", ""], difficulty: .medium))
        #expect(
            edited.question
                == Question(text: "Which pet barks?", answer: "Dog", alternates: ["Hound"], difficulty: .medium))
        #expect(try database.pack(named: "Pets").questions == [edited])

        try database.deleteQuestion(id: stored.id)
        #expect(try database.pack(named: "Pets").questions.isEmpty)
        #expect(throws: StoreError.questionNotFound(stored.id)) { try database.deleteQuestion(id: stored.id) }
        #expect(throws: StoreError.questionNotFound(stored.id)) { try database.updateQuestion(id: stored.id, to: cat) }
    }

    @Test func refusesInvalidQuestionsWithTheirProblem() throws {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Pets")
        let tooLong = String(repeating: "ø", count: 41)
        let problem = "the answer is 41 characters long; the limit is 40 (spaces and signs count)"
        #expect(throws: StoreError.invalidQuestion(problem: problem)) {
            try database.addQuestion(Question(text: "Long?", answer: tooLong, difficulty: .easy), toPack: "Pets")
        }
        // One letter with a hundred accents stacked on it is one character, but a hundred code points once the first
        // accent is composed with it (NFC).
        let stacked = "e" + String(repeating: "\u{301}", count: 100)
        let stackedProblem =
            "the answer is 100 Unicode code points long (1 character, each mark stacked on a letter counting); the "
            + "limit is 40 (spaces and signs count)"
        #expect(throws: StoreError.invalidQuestion(problem: stackedProblem)) {
            try database.addQuestion(Question(text: "Stacked?", answer: stacked, difficulty: .easy), toPack: "Pets")
        }
        #expect(throws: StoreError.invalidQuestion(problem: "the answer is empty")) {
            try database.addQuestion(Question(text: "Empty?", answer: "  ", difficulty: .easy), toPack: "Pets")
        }
        // An answer of punctuation only was stored, and no game could ever draw it ("0 eligible questions").
        #expect(
            throws: StoreError.invalidQuestion(
                problem: "the answer “?!” has no letter or digit to scramble; spell it out in words "
                    + "(an emoji or a sign may stay beside them)")
        ) {
            try database.addQuestion(Question(text: "Shout?", answer: "?!", difficulty: .easy), toPack: "Pets")
        }
        #expect(throws: StoreError.invalidQuestion(problem: "the question text is empty")) {
            try database.addQuestion(Question(text: "", answer: "Cat", difficulty: .easy), toPack: "Pets")
        }
        #expect(throws: StoreError.self) {
            try database.addQuestion(
                Question(text: "Pipe?", answer: "Cat", alternates: ["A|B"], difficulty: .easy), toPack: "Pets")
        }
        // Exactly 40 letters, non-ASCII included, are fine; so are decomposed accents, stored composed.
        try database.addQuestion(
            Question(text: "Long?", answer: String(repeating: "ø", count: 40), difficulty: .easy), toPack: "Pets")
        let decomposed = "Ha\u{0300} No\u{0323}\u{0302}i"
        let stored = try database.addQuestion(
            Question(text: "Capital?", answer: decomposed, difficulty: .easy), toPack: "Pets")
        #expect(stored.question.answer.unicodeScalars.count == 6)
        #expect(try database.pack(named: "Pets").questions.count == 2)
        // At most 20 alternates once repeats are dropped, however many repeats there are.
        let twenty = (1...20).map { "Cat \($0)" }
        let kept = try database.addQuestion(
            Question(
                text: "Twenty?", answer: "Cat", alternates: twenty + Array(repeating: "CAT 1", count: 100_000),
                difficulty: .easy), toPack: "Pets")
        #expect(kept.question.alternates == twenty)
        #expect(throws: StoreError.invalidQuestion(problem: "a question has at most 20 alternate answers")) {
            try database.addQuestion(
                Question(
                    text: "Many?", answer: "Cat", alternates: (1...100_000).map { "Cat \($0)" }, difficulty: .easy),
                toPack: "Pets")
        }
    }

    @Test func questionPoolFollowsPacksAndFilter() throws {
        let database = try StoreFixtures.database(withPack: "Pets", questions: [cat, owl, ant])
        try database.createPack(named: "More")
        let bee = Question(text: "Which insect makes honey?", answer: "Bee", difficulty: .easy)
        try database.addQuestion(bee, toPack: "More")

        #expect(try database.questions(inPacks: ["Pets"], filter: .any) == [cat, owl, ant])
        #expect(try database.questions(inPacks: ["More", "pets", "Pets"], filter: .easy) == [bee, cat])
        #expect(try database.questions(inPacks: ["Pets", "More"], filter: .hard) == [ant])
        #expect(try database.questions(inPacks: [], filter: .any).isEmpty)
        #expect(throws: StoreError.packNotFound("Gone")) { try database.questions(inPacks: ["Pets", "Gone"]) }
    }

    @Test func aSearchCountsEachWordOnceAndItsFirstSixteenWords() throws {
        let sixteen = (1...16).map { "w\($0)x" }
        let database = try StoreFixtures.database(
            withPack: "Words",
            questions: [Question(text: sixteen.joined(separator: " ") + "?", answer: "Count", difficulty: .easy)])
        func answers(_ query: String) throws -> [String] {
            try database.searchQuestions(matching: query).map(\.question.answer)
        }
        #expect(try answers(Array(repeating: "w7x", count: 10_000).joined(separator: " ")) == ["Count"])
        #expect(try answers((sixteen + ["zebra"]).joined(separator: " ")) == ["Count"], "the 17th word does not count")
        #expect(try answers((["zebra"] + sixteen).joined(separator: " ")).isEmpty)
    }

    @Test func searchIgnoresCaseAndDiacritics() throws {
        let database = try StoreFixtures.database(
            withPack: "Places",
            questions: [
                Question(text: "What is the capital of Vietnam?", answer: "Hà Nội", difficulty: .easy),
                Question(text: "Which Swedish city faces Copenhagen?", answer: "Malmö", difficulty: .easy),
                Question(text: "Gateway to the Arctic?", answer: "Tromsø", difficulty: .medium),
                Question(
                    text: "Home of the Dragon Bridge?", answer: "Đà Nẵng", alternates: ["Da Nang"], difficulty: .medium),
                Question(text: "Which city is in Iceland?", answer: "Reykjavík", difficulty: .easy),
            ])
        func answers(_ query: String) throws -> [String] {
            try database.searchQuestions(matching: query).map(\.question.answer)
        }
        #expect(try answers("ha noi") == ["Hà Nội"])
        #expect(try answers("HÀ NỘI") == ["Hà Nội"])
        #expect(try answers("MALMO") == ["Malmö"])
        #expect(try answers("tromso") == ["Tromsø"])
        #expect(try answers("đà") == ["Đà Nẵng"])
        #expect(try answers("da nang") == ["Đà Nẵng"])
        #expect(try answers("copenhagen") == ["Malmö"])
        #expect(try answers("city") == ["Malmö", "Reykjavík"])
        #expect(try answers("  ").isEmpty)
        #expect(try answers("zanzibar").isEmpty)
        // Every word, anywhere, in any order; spaces inside words do not matter.
        #expect(try answers("capital vietnam") == ["Hà Nội"])
        #expect(try answers("vietnam capital") == ["Hà Nội"])
        #expect(try answers("hanoi") == ["Hà Nội"])
        #expect(try answers("danang") == ["Đà Nẵng"])
        #expect(try answers("capital iceland").isEmpty)
        #expect(try database.searchQuestions(matching: "city", limit: 1).count == 1)
        #expect(try database.searchQuestions(matching: "malmo").first?.packName == "Places")
        #expect(throws: StoreError.packNotFound("Other")) {
            try database.searchQuestions(matching: "x", inPack: "Other")
        }
    }
}

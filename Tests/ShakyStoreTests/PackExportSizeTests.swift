import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

/// Every pack the daemon holds exports, in every format, to a file it imports back.
@Suite struct PackExportSizeTests {
    @Test("A CSV file of short questions whose JSON export would pass the file limit is refused, saying why")
    func aPackTooLargeToExportAndImportBackIsRefused() throws {
        // 200 000 rows of a few bytes: under 2 MiB of CSV, over 16 MiB as JSON.
        var csv = "question,answer\n"
        csv.reserveCapacity(2 << 20)
        for index in 0..<200_000 { csv += "Q\(index)?,A\n" }
        #expect(csv.utf8.count < PackRules.largestPackFile)
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Short")
        }
        guard case .importFailed(let problems, 0) = error, let problem = problems.first?.problem else {
            Issue.record("expected one import problem, got \(String(describing: error))")
            return
        }
        #expect(problem.hasPrefix("the pack of 200000 questions would be "), "\(problem)")
        #expect(problem.hasSuffix("so that what is exported imports back: split the file into two packs"))
        #expect(try database.packs().isEmpty)
    }

    @Test("An exported pack is within the limit and imports back, in every format")
    func anExportedPackImportsBack() throws {
        let database = try AppDatabase.inMemory()
        let csv = "question,answer\n" + (0..<1_000).map { "Q\($0)?,A\n" }.joined()
        try database.importPack(Data(csv.utf8), format: .csv, name: "Small")
        for format in PackFileFormat.allCases {
            let exported = try database.exportPack(named: "Small", format: format)
            #expect(exported.count <= PackRules.largestPackFile)
            #expect(try PackFile.read(exported, format: format).questions.count == 1_000)
        }
    }
}

extension PackExportSizeTests {
    @Test("The JSON length an import checks is the length of the JSON export, byte for byte")
    func theCountedLengthIsTheExportsLength() throws {
        let texts = [
            "Plain?", #"Say "hi" \ back/slash?"#, "Two\nlines\tand\r\u{8}\u{C}\u{1}\u{1F}\u{7F}?", "Hà Nội 😀 ø?",
            "\u{2028}\u{2029} line separators?",
        ]
        var questions: [Question] = []
        for (index, text) in texts.enumerated() {
            let alternates = (0..<index).map { "Alt \"\($0)\" é/" }
            questions.append(
                Question(
                    text: text, answer: "A\\nswer \(index)", alternates: alternates,
                    difficulty: Difficulty.allCases[index % 3]))
        }
        for count in 0...questions.count {
            for name in [nil, "", "Pack \"N\" ø"] as [String?] {
                let file = PackFile(name: name, questions: Array(questions.prefix(count)))
                #expect(
                    try file.jsonLength() == file.jsonData().count,
                    "\(count) questions, name \(String(describing: name))")
            }
        }
    }
}

extension PackExportSizeTests {
    @Test("A question added to a full pack is refused, so the pack still exports to a file that imports back")
    func aQuestionThatWouldPassTheLimitIsRefused() throws {
        // Questions of one length, as many as fit: one more would pass the limit. Each is as long as the rules let
        // it be, so that there are fewer to import.
        let alternates = (0..<PackRules.maximumAlternates).map {
            "Alternate " + String(format: "%02d", $0) + String(repeating: "y", count: 28)
        }
        func question(_ index: Int) -> Question {
            let text = "Question " + String(format: "%06d", index) + " " + String(repeating: "x", count: 484)
            return Question(text: text, answer: "A", alternates: alternates, difficulty: .medium)
        }
        func length(_ count: Int) throws -> Int {
            try PackFile(name: "Full", questions: (0..<count).map(question)).jsonLength()
        }
        let (one, each) = (try length(1), try length(2) - length(1))
        let count = 1 + (PackRules.largestPackFile - one) / each
        #expect(try length(count) <= PackRules.largestPackFile && length(count + 1) > PackRules.largestPackFile)
        let row = ",A,medium," + alternates.joined(separator: "|") + "\n"
        let csv = "question,answer,difficulty,alternates\n" + (0..<count).map { question($0).text + row }.joined()
        let database = try AppDatabase.inMemory()
        try database.importPack(Data(csv.utf8), format: .csv, name: "Full")

        let error = #expect(throws: StoreError.self) { try database.addQuestion(question(count), toPack: "Full") }
        guard case .invalidQuestion(let problem) = error else {
            Issue.record("expected invalidQuestion, got \(String(describing: error))")
            return
        }
        #expect(problem.hasPrefix("the pack of \(count + 1) questions would be 16.1 MiB as a JSON file"), "\(problem)")
        #expect(problem.hasSuffix("; add it to another pack"))
        #expect(try database.pack(named: "Full").summary.questionCount == count)
        #expect(try database.exportPack(named: "Full", format: .json).count <= PackRules.largestPackFile)
        // A small pack takes questions as before.
        let short = Question(text: "Short?", answer: "A", difficulty: .easy)
        try database.createPack(named: "Small")
        try database.addQuestion(short, toPack: "Small")
    }
}

extension PackExportSizeTests {
    /// The pack's name is in its JSON export too: a rename or a copy under a longer name could take a pack that was
    /// just within the limit past it.
    @Test func aLongerNameThatWouldTakeAFullPackPastTheLimitIsRefused() throws {
        // Questions as long as the rules let them be (fewer to import), as many as pass the limit by less than one of
        // them, then the first questions' padding shortened until the pack as JSON is exactly 10 bytes under it.
        let alternates = (0..<PackRules.maximumAlternates).map {
            "Alternate " + String(format: "%02d", $0) + String(repeating: "y", count: 28)
        }
        func questions(_ texts: [String]) -> [Question] {
            texts.map { Question(text: $0, answer: "A", alternates: alternates, difficulty: .medium) }
        }
        func text(_ index: Int) -> String { "Q\(String(format: "%05d", index)) " + String(repeating: "x", count: 480) }
        func length(_ texts: [String]) throws -> Int {
            try PackFile(name: "Full", questions: questions(texts)).jsonLength()
        }
        let (one, each) = (try length([text(0)]), try length([text(0), text(1)]) - length([text(0)]))
        var texts = (0..<(2 + (PackRules.largestPackFile - one) / each)).map(text)
        var over = one + (texts.count - 1) * each - (PackRules.largestPackFile - 10)
        try #require(over > 0 && over <= each)
        for index in texts.indices where over > 0 {
            let cut = min(over, 479)  // the space before the padding would be trimmed on import
            texts[index].removeLast(cut)
            over -= cut
        }
        #expect(try length(texts) == PackRules.largestPackFile - 10)
        let row = ",A,medium," + alternates.joined(separator: "|") + "\n"
        let csv = "question,answer,difficulty,alternates\n" + texts.map { $0 + row }.joined()
        let database = try AppDatabase.inMemory()
        try database.importPack(Data(csv.utf8), format: .csv, name: "Full")

        let longer = "Full of questions"  // 13 bytes more
        for change in [
            { try database.renamePack("Full", to: longer) },
            { _ = try database.duplicate(pack: "Full", newName: longer) },
        ] {
            let error = #expect(throws: StoreError.self) { try change() }
            guard case .invalidPackName(longer, let problem) = error else {
                Issue.record("expected invalidPackName, got \(String(describing: error))")
                continue
            }
            #expect(problem.hasSuffix("so that what is exported imports back; choose a shorter name"), "\(problem)")
        }
        #expect(try database.packs().map(\.name) == ["Full"])
        // A name 10 bytes longer still fits, exactly.
        try database.renamePack("Full", to: "Full 789 123 5")
        let exported = try database.exportPack(named: "Full 789 123 5", format: .json).count
        #expect(exported == PackRules.largestPackFile, "\(exported - PackRules.largestPackFile)")
    }
}

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
        #expect(problem.hasPrefix("the pack of \(count + 1) questions would be 16.0 MiB as a JSON file"), "\(problem)")
        #expect(problem.hasSuffix("; add it to another pack"))
        #expect(try database.pack(named: "Full").summary.questionCount == count)
        #expect(try database.exportPack(named: "Full", format: .json).count <= PackRules.largestPackFile)
        // A small pack takes questions as before.
        let short = Question(text: "Short?", answer: "A", difficulty: .easy)
        try database.createPack(named: "Small")
        try database.addQuestion(short, toPack: "Small")
    }
}

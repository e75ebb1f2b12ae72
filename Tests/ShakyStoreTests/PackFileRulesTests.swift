import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

/// JSON and CSV pack files are read by the same rules: what one format takes, the other takes too.
@Suite struct PackFileRulesTests {
    /// The same hand-written pack in both formats: no difficulty, or an empty one, and alternates in CSV's way.
    static let handWrittenCSV = """
        question,answer,difficulty,alternates
        Capital of France?,Paris,,
        Largest ocean?,Pacific,Hard,
        Capital of Vietnam?,Hà Nội,,Hanoi|Ha Noi

        """
    static let handWrittenJSON = """
        {
          "name": "Hand Made",
          "questions": [
            {"question": "Capital of France?", "answer": "Paris"},
            {"Question": "Largest ocean?", "ANSWER": "Pacific", "difficulty": " Hard "},
            {"question": "Capital of Vietnam?", "answer": "Hà Nội", "difficulty": "", "alternates": "Hanoi|Ha Noi"}
          ]
        }

        """
    static let expected = [
        Question(text: "Capital of France?", answer: "Paris", difficulty: .medium),
        Question(text: "Largest ocean?", answer: "Pacific", difficulty: .hard),
        Question(text: "Capital of Vietnam?", answer: "Hà Nội", alternates: ["Hanoi", "Ha Noi"], difficulty: .medium),
    ]

    @Test func aHandWrittenPackImportsAlikeFromJSONAndCSV() throws {
        let database = try AppDatabase.inMemory()
        let (fromJSON, jsonWarnings) = try database.importPackWithWarnings(
            Data(Self.handWrittenJSON.utf8), format: .json)
        let (fromCSV, csvWarnings) = try database.importPackWithWarnings(
            Data(Self.handWrittenCSV.utf8), format: .csv, name: "Hand Made CSV")
        #expect(fromJSON.name == "Hand Made")
        #expect(try database.questions(inPacks: [fromJSON.name]) == Self.expected)
        #expect(try database.questions(inPacks: [fromCSV.name]) == Self.expected)
        #expect(jsonWarnings.isEmpty && csvWarnings.isEmpty, "\(jsonWarnings) \(csvWarnings)")
    }

    @Test(
        "A CRLF line break in a question's text is a line feed from JSON as from CSV; a carriage return alone is refused"
    )
    func windowsLineBreaksReadAlike() throws {
        let database = try AppDatabase.inMemory()
        let json = #"{"name": "Windows", "questions": [{"question": "Which bird\r\nhoots?", "answer": "Owl"}]}"#
        let csv = "question,answer\r\n\"Which bird\r\nhoots?\",Owl\r\n"
        let fromJSON = try database.importPack(Data(json.utf8), format: .json)
        let fromCSV = try database.importPack(Data(csv.utf8), format: .csv, name: "Windows CSV")
        #expect(try database.questions(inPacks: [fromJSON.name]).map(\.text) == ["Which bird\nhoots?"])
        #expect(try database.questions(inPacks: [fromCSV.name]).map(\.text) == ["Which bird\nhoots?"])
        #expect(throws: StoreError.self) {
            try database.importPack(
                Data(#"{"name": "Old Mac", "questions": [{"question": "Which\rbird?", "answer": "Owl"}]}"#.utf8),
                format: .json)
        }
    }

    @Test("A question without difficulty, or with null, is the one default difficulty, medium, as in CSV")
    func theDefaultDifficultyIsOneRule() throws {
        #expect(PackRules.defaultDifficulty == .medium)
        for difficulty in [nil, "", "  ", "\t"] as [String?] {
            #expect(try PackRules.difficulty(difficulty) == PackRules.defaultDifficulty)
        }
        let json = #"{"name": "N", "questions": [{"question": "Q?", "answer": "A", "difficulty": null}]}"#
        let pack = try AppDatabase.inMemory().importPack(Data(json.utf8), format: .json)
        #expect(pack.mediumCount == 1)
    }

    @Test func alternatesLeftOutOrNullAreNone() throws {
        let json = """
            {"name": "N", "questions": [
              {"question": "Q1?", "answer": "A"},
              {"question": "Q2?", "answer": "B", "alternates": null},
              {"question": "Q3?", "answer": "C", "alternates": ["C1", "", "C"]}
            ]}
            """
        let database = try AppDatabase.inMemory()
        let (_, warnings) = try database.importPackWithWarnings(Data(json.utf8), format: .json)
        #expect(try database.questions(inPacks: ["N"]).map(\.alternates) == [[], [], ["C1"]])
        #expect(
            warnings == [
                "line 4: the alternate “C” repeats the answer or an alternate before it, and an alternate is "
                    + "blank; left out"
            ])
    }

    @Test(
        "Alternates that repeat the answer or each other are left out with a warning that names them, in CSV and JSON")
    func repeatedAlternatesAreWarnings() throws {
        let csv = """
            question,answer,difficulty,alternates
            Capital of France?,Paris,easy,paris|Lutetia| lutetia |PARIS
            Capital of Italy?,Rome,easy,Roma
            Capital of Spain?,Madrid,easy,madrid| |Madrid|MADRID|mAdrid|Madri
            """
        let database = try AppDatabase.inMemory()
        let (_, warnings) = try database.importPackWithWarnings(Data(csv.utf8), format: .csv, name: "Capitals")
        #expect(
            try database.questions(inPacks: ["Capitals"]).map(\.alternates) == [["Lutetia"], ["Roma"], ["Madri"]])
        #expect(
            warnings == [
                "line 2: the alternates “paris”, “lutetia” and “PARIS” repeat the answer or an alternate before it; "
                    + "left out",
                "line 4: the alternates “madrid”, “Madrid”, “MADRID” and 1 more repeat the answer or an alternate "
                    + "before it, and an alternate is blank; left out",
            ])
        let json = #"{"name": "J", "questions": [{"question": "Q?", "answer": "Owl", "alternates": ["owl"]}]}"#
        let (_, jsonWarnings) = try database.importPackWithWarnings(Data(json.utf8), format: .json)
        #expect(jsonWarnings == ["line 1: the alternate “owl” repeats the answer or an alternate before it; left out"])
    }

    /// An empty place between pipes was dropped without a word, where a blank alternate (`Roma| |Rom`) is warned of:
    /// its author may have meant a word there.
    @Test func emptyAlternatesBetweenPipesAreWarnedOfAsBlankOnes() throws {
        let csv = """
            question,answer,difficulty,alternates
            Capital of Italy?,Rome,easy,Roma||Rom
            Capital of Spain?,Madrid,easy,Madri|
            Capital of France?,Paris,easy,
            """
        let database = try AppDatabase.inMemory()
        let (_, warnings) = try database.importPackWithWarnings(Data(csv.utf8), format: .csv, name: "Capitals")
        #expect(try database.questions(inPacks: ["Capitals"]).map(\.alternates) == [["Roma", "Rom"], ["Madri"], []])
        #expect(warnings == ["line 2: an alternate is blank; left out", "line 3: an alternate is blank; left out"])
        let json = #"{"name": "J", "questions": [{"question": "Q?", "answer": "Owl", "alternates": "Howl||Fowl"}]}"#
        let (_, jsonWarnings) = try database.importPackWithWarnings(Data(json.utf8), format: .json)
        #expect(jsonWarnings == ["line 1: an alternate is blank; left out"])
    }

    @Test("Members that are not a question's are taken with a warning, as CSV's extra columns are, and so are repeats")
    func otherMembersAndRepeatsAreWarnings() throws {
        let json = """
            {
              "name": "Notes",
              "author": "Kim",
              "questions": [
                {"question": "Tallest animal?", "answer": "Giraffe", "hint": "long neck"},
                {"question": "Largest ocean?", "answer": "Pacific", "category": "geography"},
                {
                  "question": "tallest  animal?",
                  "answer": "GIRAFFE",
                  "hint": "spots"
                }
              ]
            }
            """
        let (pack, warnings) = try AppDatabase.inMemory().importPackWithWarnings(Data(json.utf8), format: .json)
        #expect(pack.questionCount == 3)
        #expect(
            warnings == [
                "line 7 repeats the question and answer of line 5",
                "the field “hint” (in 2 questions, the first at line 5) is not one of question, answer, difficulty, "
                    + "alternates and was ignored",
                "the field “category” (line 6) is not one of question, answer, difficulty, alternates and was ignored",
                "the member “author” is not one of name, questions and was ignored",
            ])
    }

    @Test func everyBadJSONQuestionIsNamedByItsLineAndNothingIsImported() throws {
        let json = """
            {
              "name": "Bad",
              "questions": [
                {"question": "Q1?", "answer": ""},
                {"question": "Q2?", "answer": "B", "difficulty": "extreme"},
                {"question": "Q3?", "answer": "C"},
                {
                  "question": "Q4?",
                  "answer": 42
                },
                {"answer": "E"},
                "Q6?"
              ]
            }
            """
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) { try database.importPack(Data(json.utf8), format: .json) }
        #expect(
            error
                == .importFailed(problems: [
                    PackFileProblem(line: 4, field: "questions[0].answer", problem: "the answer is empty"),
                    PackFileProblem(
                        line: 5, field: "questions[1].difficulty",
                        problem: "unknown difficulty “extreme” (use easy, medium or hard)"),
                    PackFileProblem(
                        line: 9, field: "questions[3].answer",
                        problem: "expected a string here; write the number in quotes"),
                    PackFileProblem(
                        line: 11, field: "questions[4].question", problem: "the “question” value is missing"),
                    PackFileProblem(
                        line: 12, field: "questions[5]",
                        problem: "expected an object { … } with a “question” and an “answer” here"),
                ]))
        #expect(try database.packs().isEmpty)
    }

    @Test(
        "The first 20 bad questions are named and the others counted, and a long value is cut, so the error stays short",
        arguments: PackFileFormat.allCases)
    func aReportNamesTwentyBadQuestionsAndCountsTheRest(format: PackFileFormat) throws {
        let long = String(repeating: "extreme", count: 20_000)
        let data: Data
        switch format {
        case .csv:
            data = Data(("question,answer,difficulty\n" + (1...25).map { "Q\($0)?,A,\(long)\n" }.joined()).utf8)
        case .tsv:
            data = Data(("question\tanswer\tdifficulty\n" + (1...25).map { "Q\($0)?\tA\t\(long)\n" }.joined()).utf8)
        case .json:
            let questions = (1...25).map { #"{"question": "Q\#($0)?", "answer": "A", "difficulty": "\#(long)"}"# }
            data = Data(("{\"name\": \"Long\", \"questions\": [\n" + questions.joined(separator: ",\n") + "\n]}").utf8)
        }
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) {
            try database.importPack(data, format: format, name: "Long")
        }
        guard case .importFailed(let problems, let unlisted) = error else {
            Issue.record("expected importFailed, got \(String(describing: error))")
            return
        }
        #expect(problems.count == PackFile.mostListedProblems)
        #expect(unlisted == 5)
        #expect(problems.map(\.line) == (2...21).map { $0 })
        let cut = String(repeating: "extreme", count: 5) + "extr…"
        #expect(problems.allSatisfy { $0.problem == "unknown difficulty “\(cut)” (use easy, medium or hard)" })
        #expect(error?.description.hasSuffix("; and 5 more.") == true)
        #expect((error?.description.utf8.count ?? .max) < 4_000)
        #expect(try database.packs().isEmpty)
    }

    @Test func questionPlacesFollowTheTextWhateverItsSpacingAndEscapes() throws {
        let json = """
            {"name": "a\\"b", "ques\\u0074ions": [
              {"question": "Q?",

               "answer": "A"}, [1, {"answer": 2}],
              "three"
            ], "after": {"questions": [{}]}}
            """
        #expect(
            try JSONSyntaxLocator.questionPlaces(in: Data(json.utf8)) == [
                .init(line: 2, fields: ["question": 2, "answer": 4]), .init(line: 4), .init(line: 5),
            ])
        #expect(try JSONSyntaxLocator.questionPlaces(in: Data("[1, 2]".utf8)).isEmpty)
        #expect(try JSONSyntaxLocator.questionPlaces(in: Data(#"{"questions": 3}"#.utf8)).isEmpty)
        // A name given twice, at any depth, is named with its line; the grammar allows it, the decoder hides it.
        let twice = "{\"questions\": [\n{\"answer\": \"A\",\n \"answer\": \"B\"}]}"
        #expect(throws: JSONSyntaxLocator.Problem.self) { try JSONSyntaxLocator.questionPlaces(in: Data(twice.utf8)) }
        #expect(
            (try? JSONSyntaxLocator.questionPlaces(in: Data("{\"a\": {\"b\": 1, \"b\": 2}}".utf8))) == nil,
            "in an object outside the questions too")
    }
}

import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct ImportExportTests {
    @Test(arguments: PackFileFormat.allCases)
    func exportThenImportGivesTheSamePack(format: PackFileFormat) throws {
        let database = try StoreFixtures.database(withPack: "Party")
        let original = try database.pack(named: "Party").questions.map(\.question)
        let exported = try database.exportPack(named: "Party", format: format)

        let imported = try database.importPack(exported, format: format, name: "Party Again")
        #expect(imported.questionCount == StoreFixtures.awkwardQuestions.count)
        #expect(try database.pack(named: "Party Again").questions.map(\.question) == original)
        if format != .json {
            // A CSV or TSV file holds no name, so the second export is byte for byte the first.
            #expect(try database.exportPack(named: "Party Again", format: format) == exported)
        }
    }

    @Test func jsonExportCarriesThePackName() throws {
        let database = try StoreFixtures.database(withPack: "Ærø & Co")
        let exported = try database.exportPack(named: "Ærø & Co", format: .json)
        try database.deletePack(named: "Ærø & Co")
        let imported = try database.importPack(exported, format: .json)
        #expect(imported.name == "Ærø & Co")
        #expect(String(decoding: exported, as: UTF8.self).contains("\"Hà Nội\""))
    }

    @Test func csvExportHasTheHeaderAndPipeSeparatedAlternates() throws {
        let database = try StoreFixtures.database(withPack: "Party")
        let text = String(decoding: try database.exportPack(named: "Party", format: .csv), as: UTF8.self)
        #expect(text.hasPrefix("question,answer,difficulty,alternates\r\n"))
        #expect(text.contains("\"Say \"\"cheese\"\", please\",Brie,easy,Camembert|Comté\r\n"))
        #expect(text.contains("\"A question on\ntwo lines, with a comma\",Hà Nội,medium,Ha Noi\r\n"))
    }

    @Test(
        "TSV is CSV with tabs between the fields: commas stay unquoted, and what holds a quote or line break is quoted")
    func tsvExportHasTabsBetweenTheFields() throws {
        let database = try StoreFixtures.database(withPack: "Party")
        let text = String(decoding: try database.exportPack(named: "Party", format: .tsv), as: UTF8.self)
        #expect(text.hasPrefix("question\tanswer\tdifficulty\talternates\r\n"))
        #expect(text.contains("\"Say \"\"cheese\"\", please\"\tBrie\teasy\tCamembert|Comté\r\n"), "\(text)")
        #expect(text.contains("\"A question on\ntwo lines, with a comma\"\tHà Nội\tmedium\tHa Noi\r\n"), "\(text)")
    }

    @Test func importsASpreadsheetStyleCSV() throws {
        let csv =
            "\u{FEFF}Answer;Question;Difficulty\r\nMalmö;Which city faces Copenhagen?;Easy\r\n;;\r\nÆrø;\"Island; Danish\";HARD\r\n"
        let database = try AppDatabase.inMemory()
        let pack = try database.importPack(Data(csv.utf8), format: .csv, name: "Nordic")
        #expect([pack.easyCount, pack.mediumCount, pack.hardCount] == [Int](arrayLiteral: 1, 0, 1))
        #expect(
            try database.questions(inPacks: ["Nordic"]) == [
                Question(text: "Which city faces Copenhagen?", answer: "Malmö", difficulty: .easy),
                Question(text: "Island; Danish", answer: "Ærø", difficulty: .hard),
            ])
    }

    /// A bad CSV imports nothing and its error names the line (and field) and the problem.
    @Test(
        arguments: [
            (
                "question,answer,difficulty\nQ1?,A,easy\nQ2?,B,extreme\n", 3, "difficulty",
                "unknown difficulty “extreme”"
            ),
            (
                "question,answer,difficulty\nQ1?,A,easy\n\"Q2\non two lines?\",B,easy\nQ3?,,hard\n", 5, "answer",
                "the answer is empty"
            ),
            (
                "question,answer,difficulty\nQ?,\(String(repeating: "x", count: 41)),easy\n", 2, "answer",
                "41 characters long"
            ),
            (
                "question,answer,difficulty\nQ1?,A,easy\nQ2?,B,easy,more\n", 3, nil,
                "expected 3 fields like the header, found 4"
            ),
            ("answer,difficulty\nA,easy\n", 1, "question", "the header has no “question” column"),
            ("question,difficulty\nQ1?,easy\n", 1, "answer", "the header has no “answer” column"),
            (
                "Capital of France?,Paris\nCapital of Spain?,Madrid\n", 1, "question",
                "the header has no “question” column: the first line names the columns, as in "
                    + "question,answer,difficulty,alternates"
            ),
            (
                "question,answer,difficulty,alternates\nQ1?,A,easy,B|C\nQ2?,\"A\"x,easy,\n", 3, nil,
                "after the closing quote"
            ),
            ("question,answer,difficulty\nQ1?,\"A,easy\n", 2, nil, "a quoted field is never closed"),
            ("", 1, nil, "the file is empty"),
        ] as [(String, Int, String?, String)])
    func aBadCSVImportsNothingAndNamesItsLine(csv: String, line: Int, field: String?, problem: String) throws {
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Bad")
        }
        guard case .importFailed(let problems, let unlisted) = error, problems.count == 1, unlisted == 0 else {
            Issue.record("expected importFailed with one problem, got \(String(describing: error))")
            return
        }
        #expect(problems[0].line == line)
        #expect(problems[0].field == field)
        #expect(problems[0].problem.contains(problem), "\(problems[0].problem)")
        #expect(error?.description.contains("line \(line)") == true)
        #expect(try database.packs().isEmpty)
    }

    @Test func invalidUTF8IsReportedWithItsLine() throws {
        var data = Data("question,answer,difficulty\nQ?,A,easy\n".utf8)
        data += Data([0x51, 0xFF, 0x3F, 0x2C, 0x41, 0x2C, 0x65, 0x61, 0x73, 0x79, 0x0A])
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) { try database.importPack(data, format: .csv, name: "Bytes") }
        guard case .importFailed(let problems, _) = error else {
            Issue.record("expected importFailed, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.line) == [3])
        #expect(try database.packs().isEmpty)
    }

    @Test func aDuplicateNameImportsNothing() throws {
        let database = try StoreFixtures.database(withPack: "Party")
        let csv = Data("question,answer,difficulty\nQ?,A,easy\n".utf8)
        #expect(throws: StoreError.duplicatePackName("Party")) {
            try database.importPack(csv, format: .csv, name: "PARTY")
        }
        #expect(throws: StoreError.self) { try database.importPack(csv, format: .csv) }
        #expect(try database.packs().map(\.questionCount) == [StoreFixtures.awkwardQuestions.count])
    }

    @Test(
        arguments: [
            (
                #"{"name": "X", "questions": [{"question": "Q?", "answer": "A", "difficulty": "tricky"}]}"#,
                "questions[0].difficulty", "unknown difficulty"
            ),
            (
                #"{"name": "X", "questions": [{"question": "Q?", "difficulty": "easy"}]}"#, "questions[0].answer",
                "missing"
            ),
            (
                #"{"name": "X", "questions": [{"question": "Q?", "answer": 42, "difficulty": "easy"}]}"#,
                "questions[0].answer", "expected a string here; write the number in quotes"
            ),
            (
                #"{"name": "X", "questions": ["Q?"]}"#, "questions[0]",
                "expected an object { … } with a “question” and an “answer” here"
            ),
            (
                #"{"name": "X", "questions": [{"question": "Q?", "answer": "A", "alternates": [1]}]}"#,
                "questions[0].alternates", "expected a list of strings"
            ),
            (#"{"name": "X"}"#, "questions", "no “questions” list"),
            (#"{"name": "X", "questions": [}"#, "", "not valid JSON at column 29: expected a value"),
            (
                #"{"name": "X", "questions": [{"question": "Q?", "answer": "A", "answer": "B"}]}"#, "",
                "“answer” is given twice in one object (first on line 1); keep the one you mean"
            ),
            (#"{"name": "X", "name": "Y", "questions": []}"#, "", "“name” is given twice"),
        ] as [(String, String?, String)])
    func aBadJSONFileImportsNothingAndNamesTheValue(json: String, field: String?, problem: String) throws {
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) { try database.importPack(Data(json.utf8), format: .json) }
        guard case .importFailed(let problems, let unlisted) = error, problems.count == 1, unlisted == 0 else {
            Issue.record("expected importFailed with one problem, got \(String(describing: error))")
            return
        }
        // A syntax error names its line and column; a bad question its line and its place in the file; a file
        // without questions its place.
        if field == "" {
            #expect(problems[0].line == 1 && problems[0].field == nil)
        } else {
            #expect(problems[0].line == (field == "questions" ? nil : 1) && problems[0].field == field)
        }
        #expect(problems[0].problem.contains(problem), "\(problems[0].problem)")
        #expect(try database.packs().isEmpty)
    }

    @Test func builtinPacksExportAndReimportAsCustomPacks() throws {
        let database = try AppDatabase.inMemory(builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        for format in PackFileFormat.allCases {
            let exported = try database.exportPack(named: "Places with Accents", format: format)
            let copy = try database.importPack(exported, format: format, name: "Places \(format.rawValue)")
            #expect(!copy.isBuiltin)
            #expect(
                try database.questions(inPacks: [copy.name])
                    == database.questions(inPacks: ["Places with Accents"]))
        }
    }
}

@Suite struct CSVImportReportTests {
    @Test("What spreadsheets save is taken: tabs, two columns, short rows and empty columns at the end")
    func spreadsheetShapesImport() throws {
        let database = try AppDatabase.inMemory()
        let sheets = [
            "question\tanswer\tdifficulty\nLargest ocean?\tPacific\thard\nTallest animal?\tGiraffe\t\n",
            "Question,Answer\nLargest ocean?,Pacific\nTallest animal?,Giraffe\n",
            "question,answer,difficulty,alternates,,\nLargest ocean?,Pacific,hard,,,\nTallest animal?,Giraffe\n",
        ]
        for (index, sheet) in sheets.enumerated() {
            let (pack, warnings) = try database.importPackWithWarnings(
                Data(sheet.utf8), format: .csv, name: "Sheet \(index)")
            #expect(pack.questionCount == 2, "sheet \(index)")
            #expect(warnings.isEmpty, "sheet \(index): \(warnings)")
            let questions = try database.questions(inPacks: ["Sheet \(index)"])
            #expect(questions.map(\.answer) == ["Pacific", "Giraffe"], "sheet \(index)")
            #expect(questions.last?.difficulty == .medium, "a missing difficulty is medium")
        }
    }

    @Test func everyBadLineIsReportedAndNothingImported() throws {
        let database = try AppDatabase.inMemory()
        let csv = "question,answer,difficulty\nQ1?,,easy\nQ2?,B,easy\nQ3?,C,extreme\nQ4?,D,easy,x\n"
        let error = #expect(throws: StoreError.self) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Bad")
        }
        #expect(
            error
                == .importFailed(problems: [
                    PackFileProblem(line: 2, field: "answer", problem: "the answer is empty"),
                    PackFileProblem(
                        line: 4, field: "difficulty", problem: "unknown difficulty “extreme” (use easy, medium or hard)"
                    ),
                    PackFileProblem(line: 5, problem: "expected 3 fields like the header, found 4"),
                ]))
        #expect(try database.packs().isEmpty)
    }

    @Test("An empty pack exports and imports back, with a warning that it holds no questions")
    func anEmptyPackImportsBackWithAWarning() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.createPack(named: "Blank")
        for format in [PackFileFormat.csv, .json] {
            let exported = try database.exportPack(named: "Blank", format: format)
            let (pack, warnings) = try database.importPackWithWarnings(exported, format: format, name: "Copy \(format)")
            #expect(pack.questionCount == 0)
            #expect(warnings == ["the file holds no questions: the pack is empty"], "\(format)")
        }
    }

    @Test func emptyDifficultyIsMediumAndRepeatsAndExtraColumnsAreWarnings() throws {
        let database = try AppDatabase.inMemory()
        let csv = "question,answer,difficulty,notes\nQ1?,A,,x\nQ2?,B,hard,y\nq1? ,a,easy,z\n"
        let (pack, warnings) = try database.importPackWithWarnings(Data(csv.utf8), format: .csv, name: "Mine")
        #expect(pack.questionCount == 3)
        #expect(try database.pack(named: "Mine").questions.first?.question.difficulty == .medium)
        #expect(
            warnings == [
                "the column “notes” is not one of question, answer, difficulty, alternates and was ignored",
                "line 4 repeats the question and answer of line 2",
            ])
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpened() throws {
        let database = try AppDatabase.inMemory()
        let csv = "question,answer,difficulty\nQ1?,A,easy\n\"Q2, with a comma?,B,easy\nQ3?,C,easy\nQ4?,D,easy\n"
        let error = #expect(throws: StoreError.self) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Bad")
        }
        guard case .importFailed(let problems, _) = error, let first = problems.first else {
            Issue.record("expected importFailed, got \(String(describing: error))")
            return
        }
        #expect(problems.count == 1)
        #expect(first.line == 3)
        #expect(first.problem.contains("never closed"))
    }

    @Test func aJSONSyntaxErrorNamesItsLineAndColumn() throws {
        let database = try AppDatabase.inMemory()
        let json = "{\n  \"name\": \"X\",\n  \"questions\": [\n    {\"question\": \"Q?\" \"answer\": \"A\"}\n  ]\n}\n"
        let error = #expect(throws: StoreError.self) { try database.importPack(Data(json.utf8), format: .json) }
        #expect(error?.description.contains("at line 4") == true, "\(String(describing: error))")
        #expect(error?.description.contains("column 23") == true, "\(String(describing: error))")
        #expect(error?.description.contains("NSCocoaErrorDomain") == false)
    }

    @Test func aWrongJSONTypeIsNamedInWords() throws {
        let database = try AppDatabase.inMemory()
        let json = #"{"name": "X", "questions": {"question": "Q?"}}"#
        let error = #expect(throws: StoreError.self) { try database.importPack(Data(json.utf8), format: .json) }
        #expect(error?.description.contains("a list [ … ]") == true, "\(String(describing: error))")
        #expect(error?.description.contains("Array") == false)
        #expect(error?.description.contains("Dictionary") == false)
    }
}

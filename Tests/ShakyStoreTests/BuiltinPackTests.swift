import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct BuiltinPackTests {
    private func databaseWithBuiltins() throws -> AppDatabase {
        try AppDatabase.inMemory(builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
    }

    @Test func shipsAtLeastFivePacksOfThirtyMixedQuestionsAndAUnicodePack() throws {
        let packs = try databaseWithBuiltins().packs()
        #expect(packs.allSatisfy { $0.isBuiltin })
        let full = packs.filter { $0.questionCount >= 30 && min($0.easyCount, $0.mediumCount, $0.hardCount) >= 8 }
        #expect(full.count >= 5, "packs: \(packs.map { "\($0.name) \($0.questionCount)" })")

        let database = try databaseWithBuiltins()
        let unicodePacks = try packs.filter { pack in
            let answers = try database.pack(named: pack.name).questions.map(\.question.answer)
            return answers.count >= 20 && answers.allSatisfy { $0.unicodeScalars.contains { !$0.isASCII } }
        }
        #expect(unicodePacks.map(\.name) == ["Places with Accents"])
    }

    @Test func everyBuiltinQuestionIsShortAndUnique() throws {
        let database = try databaseWithBuiltins()
        for pack in try database.packs() {
            let questions = try database.pack(named: pack.name).questions.map(\.question)
            #expect(Set(questions.map(\.text)).count == questions.count, "repeated question in \(pack.name)")
            for question in questions {
                let words = question.answer.split(separator: " ").count
                #expect((1...3).contains(words), "\(pack.name): “\(question.answer)” is \(words) words")
            }
        }
    }

    @Test func installingAgainChangesNothing() throws {
        let database = try databaseWithBuiltins()
        let before = try StoreFixtures.dump(database)
        #expect(try database.installBuiltinPacks(from: StoreFixtures.builtinPacksFolder).isEmpty)
        #expect(try StoreFixtures.dump(database) == before)
    }

    @Test func findsTheInstalledPacksThroughTheInstallLayout() throws {
        let database = try AppDatabase.inMemory(builtinPacks: .installed)
        #expect(try database.packs().count == 7)
    }

    /// A packaged data folder is often a link (`/usr/share/shaky/packs` to a shared folder, SHAKY_DATA_DIR's packs to
    /// a checkout): the packs behind it are installed, not none without a word.
    @Test func installsThePacksOfAFolderReachedThroughASymbolicLink() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("packs")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: StoreFixtures.builtinPacksFolder)
        let database = try AppDatabase.inMemory(builtinPacks: .directory(link))
        #expect(try database.packs().count == 7)
    }

    @Test func aNewerFileReplacesTheBuiltinPackAndAnOlderOneIsIgnored() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func writePack(version: Int, name: String, answers: [String]) throws {
            let questions = answers.map { ["question": "Q \($0)?", "answer": $0, "difficulty": "easy"] }
            let json: [String: Any] = ["id": "test", "version": version, "name": name, "questions": questions]
            try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("test.json"))
        }
        try writePack(version: 1, name: "Test", answers: ["One", "Two"])
        let database = try AppDatabase.inMemory(builtinPacks: .directory(folder))
        #expect(try database.pack(named: "Test").summary.builtinVersion == 1)

        try writePack(version: 2, name: "Tested", answers: ["Three"])
        #expect(try database.installBuiltinPacks(from: folder) == ["Tested"])
        let updated = try database.pack(named: "Tested")
        #expect(updated.summary.builtinVersion == 2)
        #expect(updated.questions.map(\.question.answer) == ["Three"])

        try writePack(version: 1, name: "Test", answers: ["One"])
        #expect(try database.installBuiltinPacks(from: folder).isEmpty)
        #expect(try database.pack(named: "Tested").questions.map(\.question.answer) == ["Three"])
    }

    @Test func onlyTheFilesToInstallAreReadWhole() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func writePack(version: Int, answer: String) throws {
            let json: [String: Any] = [
                "id": "test", "version": version, "name": "Test",
                "questions": [["question": "Q?", "answer": answer, "difficulty": "easy"]],
            ]
            try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("test.json"))
        }
        try writePack(version: 1, answer: "One")
        let database = try AppDatabase.inMemory(builtinPacks: .directory(folder))
        let before = try StoreFixtures.dump(database)

        // Installed at this version: its questions are not read, so an empty answer goes unseen and changes nothing.
        try writePack(version: 1, answer: "")
        #expect(try database.installBuiltinPacks(from: folder).isEmpty)
        #expect(try StoreFixtures.dump(database) == before)

        // A newer version is read whole and checked: refused, and nothing changes.
        try writePack(version: 2, answer: "")
        let error = #expect(throws: StoreError.self) { try database.installBuiltinPacks(from: folder) }
        guard case .builtinPackInvalid(_, let problem) = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(problem.contains("questions[0].answer"))
        #expect(try StoreFixtures.dump(database) == before)
    }

    @Test func aFileWithoutAnIdOrNotJSONIsRefusedWithWhatIsWrong() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data(#"{"version": 1, "name": "No id", "questions": []}"#.utf8).write(to: file)
        let database = try AppDatabase.inMemory()
        #expect(
            throws: StoreError.builtinPackInvalid(
                file: file.path, problem: "it needs an “id”, a “version” (1 or more) and a “name”"
            )
        ) { try database.installBuiltinPacks(from: folder) }

        try Data(#"{"id": "x", "version": 1, "name": "Broken", "questions": [}"#.utf8).write(to: file)
        let error = #expect(throws: StoreError.self) { try database.installBuiltinPacks(from: folder) }
        guard case .builtinPackInvalid(_, let problem) = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(problem.contains("not valid JSON at column"), "\(problem)")
        #expect(try database.packs().isEmpty)

        // A name the pack rules refuse is refused from the header, before any question is read.
        try Data(#"{"id": "x", "version": 1, "name": "Tab\there", "questions": []}"#.utf8).write(to: file)
        let badName = #expect(throws: StoreError.self) { try database.installBuiltinPacks(from: folder) }
        guard case .builtinPackInvalid(let path, let nameProblem) = badName else {
            Issue.record("unexpected error \(String(describing: badName))")
            return
        }
        #expect(path == file.path)
        #expect(nameProblem.contains("control character"), "\(nameProblem)")
        #expect(try database.packs().isEmpty)
    }

    @Test func aCustomPackKeepsItsNameWhenABuiltinPackArrivesWithIt() throws {
        let database = try StoreFixtures.database(withPack: "Animals")
        try database.installBuiltinPacks(from: StoreFixtures.builtinPacksFolder)
        #expect(try !database.pack(named: "Animals").summary.isBuiltin)
        #expect(try database.pack(named: "Animals (built-in)").summary.isBuiltin)
    }

    @Test func aBadBuiltinFileInstallsNothing() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: StoreFixtures.builtinPacksFolder.appendingPathComponent("animals.json"),
            to: folder.appendingPathComponent("animals.json"))
        let bad =
            #"{"id": "bad", "version": 1, "name": "Bad", "questions": [{"question": "Q?", "answer": "", "difficulty": "easy"}]}"#
        try Data(bad.utf8).write(to: folder.appendingPathComponent("bad.json"))
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) { try database.installBuiltinPacks(from: folder) }
        guard case .builtinPackInvalid(let file, let problem) = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(file.hasSuffix("bad.json"))
        #expect(problem.contains("questions[0].answer"))
        #expect(try database.packs().isEmpty)
    }

    @Test func builtinPacksAreReadOnly() throws {
        let database = try databaseWithBuiltins()
        let animals = try database.pack(named: "animals")
        let question = try #require(animals.questions.first)
        let readOnly = StoreError.builtinPackIsReadOnly("Animals")
        #expect(readOnly.description == "“Animals” is a built-in pack; duplicate it to edit a copy.")
        #expect(throws: readOnly) { try database.renamePack("Animals", to: "Beasts") }
        #expect(throws: readOnly) { try database.deletePack(named: "ANIMALS") }
        #expect(throws: readOnly) { try database.addQuestion(question.question, toPack: "Animals") }
        #expect(throws: readOnly) { try database.updateQuestion(id: question.id, to: question.question) }
        #expect(throws: readOnly) { try database.deleteQuestion(id: question.id) }
        #expect(try database.pack(named: "Animals") == animals)
    }

    @Test func duplicatingABuiltinPackGivesAnEditableCopy() throws {
        let database = try databaseWithBuiltins()
        let original = try database.pack(named: "Places with Accents")
        let copy = try database.duplicate(pack: "places with accents", newName: "My Places")
        #expect(!copy.isBuiltin)
        #expect(copy.questionCount == original.summary.questionCount)
        let copied = try database.pack(named: "My Places")
        #expect(copied.questions.map(\.question) == original.questions.map(\.question))

        try database.deleteQuestion(id: try #require(copied.questions.last).id)
        try database.renamePack("My Places", to: "Our Places")
        #expect(try database.pack(named: "Our Places").questions.count == original.questions.count - 1)
        #expect(try database.pack(named: "Places with Accents") == original)
        #expect(
            try database.searchQuestions(matching: "malmo").map(\.packName) == ["Our Places", "Places with Accents"])
        #expect(throws: StoreError.duplicatePackName("Animals")) {
            try database.duplicate(pack: "Sports", newName: "animals")
        }
    }
}

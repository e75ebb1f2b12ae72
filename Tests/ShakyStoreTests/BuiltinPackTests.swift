import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct BuiltinPackTests {
    private func databaseWithBuiltins() throws -> AppDatabase {
        try AppDatabase.inMemory(builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
    }

    /// Installs the packs of `folder`: the names installed, and each skipped file's path and problem.
    private func install(
        _ database: AppDatabase, from folder: URL
    ) throws -> (installed: [String], skipped: [(file: String, problem: String)]) {
        var skipped: [(file: String, problem: String)] = []
        let installed = try database.installBuiltinPacks(from: folder) { error in
            guard case .builtinPackInvalid(let file, let problem) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            skipped.append((file, problem))
        }
        return (installed, skipped)
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

        // A newer version is read whole and checked: skipped, and the pack installed before stays as it was.
        try writePack(version: 2, answer: "")
        let (installed, skipped) = try install(database, from: folder)
        #expect(installed.isEmpty)
        #expect(skipped.map(\.problem) == ["line 1, field “questions[0].answer”: the answer is empty"])
        #expect(try StoreFixtures.dump(database) == before)
    }

    @Test func aFileWithoutAnIdOrNotJSONIsSkippedWithWhatIsWrong() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data(#"{"version": 1, "name": "No id", "questions": []}"#.utf8).write(to: file)
        let database = try AppDatabase.inMemory()
        var (installed, skipped) = try install(database, from: folder)
        #expect(installed.isEmpty)
        #expect(skipped.map(\.file) == [file.path])
        #expect(skipped.map(\.problem) == ["it needs an “id”, a “version” (1 or more) and a “name”"])

        try Data(#"{"id": "x", "version": 1, "name": "Broken", "questions": [}"#.utf8).write(to: file)
        (installed, skipped) = try install(database, from: folder)
        #expect(skipped.count == 1 && skipped[0].problem.hasPrefix("line 1: the file is not valid JSON at column "))
        #expect(try database.packs().isEmpty)

        try Data().write(to: file)
        (installed, skipped) = try install(database, from: folder)
        #expect(
            skipped.map(\.problem) == [
                "line 1: the file is not valid JSON at column 1: the file ends where a value was expected"
            ])
        #expect(!skipped.contains { $0.problem.contains("Nothing was imported") })

        // A name the pack rules refuse is refused from the header, before any question is read.
        try Data(#"{"id": "x", "version": 1, "name": "Tab\there", "questions": []}"#.utf8).write(to: file)
        (installed, skipped) = try install(database, from: folder)
        #expect(skipped.map(\.file) == [file.path])
        #expect(skipped.first?.problem.contains("control character") == true, "\(skipped)")
        #expect(try database.packs().isEmpty)
    }

    @Test("A folder or a device where a pack file should be is skipped with what it is, and the message is clean")
    func aFolderOrADeviceIsSkipped() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("zero.json"), withDestinationURL: URL(fileURLWithPath: "/dev/zero"))
        try FileManager.default.copyItem(
            at: StoreFixtures.builtinPacksFolder.appendingPathComponent("animals.json"),
            to: folder.appendingPathComponent("animals.json"))
        let database = try AppDatabase.inMemory()
        var messages: [String] = []
        let installed = try database.installBuiltinPacks(from: folder) { messages.append($0.description) }
        #expect(installed == ["Animals"])
        #expect(
            messages == [
                "The built-in pack file \(folder.path)/folder.json is invalid: it cannot be read: it is a folder, not "
                    + "a file.",
                "The built-in pack file \(folder.path)/zero.json is invalid: it cannot be read: it is larger than 16 "
                    + "MiB.",
            ])
    }

    @Test("A missing data folder is said with the folders looked in, not placeholders")
    func aMissingFolderNamesTheRealPlaces() {
        let places = AppDatabase.builtinPackPlaces(
            environment: ["SHAKY_DATA_DIR": "/srv/shaky"], executable: URL(fileURLWithPath: "/opt/shaky/bin/shakyd"))
        #expect(places == "/srv/shaky/packs (SHAKY_DATA_DIR) and /opt/shaky/share/shaky/packs")
        #expect(
            AppDatabase.builtinPackPlaces(environment: [:], executable: URL(fileURLWithPath: "/usr/bin/shakyd"))
                == "/usr/share/shaky/packs")
    }

    @Test func aCustomPackKeepsItsNameWhenABuiltinPackArrivesWithIt() throws {
        let database = try StoreFixtures.database(withPack: "Animals")
        try database.installBuiltinPacks(from: StoreFixtures.builtinPacksFolder)
        #expect(try !database.pack(named: "Animals").summary.isBuiltin)
        #expect(try database.pack(named: "Animals (built-in)").summary.isBuiltin)
    }

    @Test func aBadBuiltinFileIsSkippedAndTheOthersInstalled() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: StoreFixtures.builtinPacksFolder.appendingPathComponent("animals.json"),
            to: folder.appendingPathComponent("animals.json"))
        let bad =
            #"{"id": "bad", "version": 1, "name": "Bad", "questions": [{"question": "Q?", "answer": "", "difficulty": "easy"}]}"#
        try Data(bad.utf8).write(to: folder.appendingPathComponent("bad.json"))
        // A second file with the id of one before it is skipped too, the first one installed.
        try FileManager.default.copyItem(
            at: StoreFixtures.builtinPacksFolder.appendingPathComponent("animals.json"),
            to: folder.appendingPathComponent("copy-of-animals.json"))
        let database = try AppDatabase.inMemory()
        let (installed, skipped) = try install(database, from: folder)
        #expect(installed == ["Animals"])
        // Headers are read first, then the files to install whole.
        #expect(
            skipped.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["copy-of-animals.json", "bad.json"])
        #expect(skipped.first?.problem.contains("is also the id of animals.json") == true)
        #expect(skipped.last?.problem == "line 1, field “questions[0].answer”: the answer is empty")
        #expect(try database.packs().map(\.name) == ["Animals"])
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

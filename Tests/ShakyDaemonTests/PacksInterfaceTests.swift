import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// The Packs interface end to end: every method, through the same calls a client makes.
@Suite("Packs over the interface")
struct PacksInterfaceTests {
    typealias API = ShakyAPI

    @Test(
        "Create, add, edit, search ignoring accents, export and import back, duplicate a built-in, rename, delete",
        arguments: TestDaemon.Mode.allCases)
    func packLifecycle(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let builtins = try await client.call("io.shakywords.Packs.List", as: API.PacksInterface.ListReply.self)
                .packs
            #expect(builtins.count == 7)
            #expect(builtins.allSatisfy { $0.builtin })
            let animals = try #require(builtins.first { $0.name == "Animals" })

            let created = try await client.call(
                "io.shakywords.Packs.Create", API.PacksInterface.ShowParameters(name: "Quiz Night"),
                as: API.PacksInterface.CreateReply.self
            ).pack
            #expect(created == API.Pack(name: "Quiz Night", builtin: false, questions: 0, easy: 0, medium: 0, hard: 0))

            let malmo = try await client.call(
                "io.shakywords.Packs.AddQuestion",
                API.PacksInterface.AddQuestionParameters(
                    pack: "Quiz Night",
                    question: API.Question(
                        text: "Which city is at the Swedish end of the Øresund Bridge?", answer: "Malmö",
                        alternates: ["Malmoe"], difficulty: .medium)),
                as: API.PacksInterface.AddQuestionReply.self
            ).question
            #expect(malmo.pack == "Quiz Night")
            #expect(malmo.answer == "Malmö")
            #expect(malmo.alternates == ["Malmoe"])
            let sky = try await client.call(
                "io.shakywords.Packs.AddQuestion",
                API.PacksInterface.AddQuestionParameters(
                    pack: "quiz night",
                    question: API.Question(text: "What colour is the sky?", answer: "Blu", difficulty: .easy)),
                as: API.PacksInterface.AddQuestionReply.self
            ).question
            let edited = try await client.call(
                "io.shakywords.Packs.EditQuestion",
                API.PacksInterface.EditQuestionParameters(
                    id: sky.id,
                    question: API.Question(text: "What colour is a clear sky?", answer: "Blue", difficulty: .easy)),
                as: API.PacksInterface.AddQuestionReply.self
            ).question
            #expect(edited.id == sky.id)
            #expect(edited.text == "What colour is a clear sky?")
            #expect(edited.answer == "Blue")

            let shown = try await client.call(
                "io.shakywords.Packs.Show", API.PacksInterface.ShowParameters(name: "Quiz Night"),
                as: API.PacksInterface.ShowReply.self)
            #expect(
                shown.pack == API.Pack(name: "Quiz Night", builtin: false, questions: 2, easy: 1, medium: 1, hard: 0))
            #expect(shown.questions == [malmo, edited])

            // Search ignores case and accents, in one pack or in all.
            let inPack = try await client.call(
                "io.shakywords.Packs.Search", API.PacksInterface.SearchParameters(text: "MALMO", pack: "Quiz Night"),
                as: API.PacksInterface.SearchReply.self
            ).questions
            #expect(inPack == [malmo])
            let everywhere = try await client.call(
                "io.shakywords.Packs.Search", API.PacksInterface.SearchParameters(text: "malmö"),
                as: API.PacksInterface.SearchReply.self
            ).questions
            #expect(Set(everywhere.map(\.pack)) == ["Places with Accents", "Quiz Night"])
            let accented = try await client.call(
                "io.shakywords.Packs.Search", API.PacksInterface.SearchParameters(text: "ha noi"),
                as: API.PacksInterface.SearchReply.self
            ).questions
            #expect(accented.map(\.answer) == ["Hà Nội"])

            // Export and import round trips, CSV and JSON.
            let csv = try await client.call(
                "io.shakywords.Packs.Export", API.PacksInterface.ExportParameters(name: "Quiz Night", format: .csv),
                as: API.PacksInterface.ExportReply.self
            ).data
            #expect(csv.hasPrefix("question,answer,difficulty,alternates"))
            let csvCopy = try await client.call(
                "io.shakywords.Packs.Import",
                API.PacksInterface.ImportParameters(data: csv, format: .csv, name: "Quiz Night CSV"),
                as: API.PacksInterface.CreateReply.self
            ).pack
            #expect(
                csvCopy == API.Pack(name: "Quiz Night CSV", builtin: false, questions: 2, easy: 1, medium: 1, hard: 0))
            let json = try await client.call(
                "io.shakywords.Packs.Export", API.PacksInterface.ExportParameters(name: "Quiz Night", format: .json),
                as: API.PacksInterface.ExportReply.self
            ).data
            let clash = try await client.callError(
                "io.shakywords.Packs.Import", ["data": .string(json), "format": "json"])
            #expect(clash.name == "io.shakywords.Packs.PackExists")
            try await client.call("io.shakywords.Packs.Delete", ["name": "Quiz Night"])
            let restored = try await client.call(
                "io.shakywords.Packs.Import", API.PacksInterface.ImportParameters(data: json, format: .json),
                as: API.PacksInterface.CreateReply.self
            ).pack
            #expect(restored.name == "Quiz Night")
            for name in ["Quiz Night", "Quiz Night CSV"] {
                let questions = try await client.call(
                    "io.shakywords.Packs.Show", API.PacksInterface.ShowParameters(name: name),
                    as: API.PacksInterface.ShowReply.self
                ).questions
                #expect(questions.map(\.text) == [malmo.text, edited.text], "\(name)")
                #expect(questions.map(\.answer) == ["Malmö", "Blue"], "\(name)")
                #expect(questions.map(\.alternates) == [["Malmoe"], []], "\(name)")
                #expect(questions.map(\.difficulty) == [.medium, .easy], "\(name)")
            }

            // A built-in pack duplicated is editable; renamed, trimmed, deleted.
            let copy = try await client.call(
                "io.shakywords.Packs.Duplicate",
                API.PacksInterface.RenameParameters(name: "Animals", newName: "My Animals"),
                as: API.PacksInterface.CreateReply.self
            ).pack
            #expect(copy.builtin == false)
            #expect(copy.questions == animals.questions)
            let renamed = try await client.call(
                "io.shakywords.Packs.Rename",
                API.PacksInterface.RenameParameters(name: "My Animals", newName: "Beasts"),
                as: API.PacksInterface.CreateReply.self
            ).pack
            #expect(renamed.name == "Beasts")
            let beasts = try await client.call(
                "io.shakywords.Packs.Show", API.PacksInterface.ShowParameters(name: "Beasts"),
                as: API.PacksInterface.ShowReply.self)
            try await client.call(
                "io.shakywords.Packs.DeleteQuestion", ["id": .int(try #require(beasts.questions.first).id)])
            let fewer = try await client.call(
                "io.shakywords.Packs.Show", API.PacksInterface.ShowParameters(name: "Beasts"),
                as: API.PacksInterface.ShowReply.self)
            #expect(fewer.pack.questions == animals.questions - 1)
            try await client.call("io.shakywords.Packs.Delete", ["name": "Beasts"])

            let names = try await client.call("io.shakywords.Packs.List", as: API.PacksInterface.ListReply.self).packs
                .map(\.name)
            #expect(names.contains("Quiz Night"))
            #expect(names.contains("Quiz Night CSV"))
            #expect(!names.contains("Beasts"))
            #expect(!names.contains("My Animals"))
            #expect(names.count == 9)
        }
    }

    /// `shaky pack add` and `pack edit` found the alternates left out by comparing what they sent with the reply, a
    /// second copy of the store's rule in the client; the reply says them, in the words an import uses, and has no
    /// `warnings` at all when every alternate was kept.
    @Test(
        "AddQuestion and EditQuestion warn of blank and repeated alternates, and say nothing of a clean question",
        arguments: TestDaemon.Mode.allCases)
    func questionWarnings(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await client.call("io.shakywords.Packs.Create", ["name": "Capitals"])
            func question(_ text: String, _ answer: String, _ alternates: [String]) -> JSONValue {
                [
                    "text": .string(text), "answer": .string(answer),
                    "alternates": .array(alternates.map(JSONValue.string)), "difficulty": "easy",
                ]
            }
            let cases: [(answer: String, alternates: [String], kept: [String], warnings: JSONValue?)] = [
                // The alternates a CSV field `Roma||Rom` holds.
                ("Rome", ["Roma", "", "Rom"], ["Roma", "Rom"], ["an alternate is blank; left out"]),
                (
                    "Rome", ["ROME", "Roma"], ["Roma"],
                    ["the alternate “ROME” repeats the answer or an alternate before it; left out"]
                ),
                (
                    "Rome", ["Roma", " roma "], ["Roma"],
                    ["the alternate “roma” repeats the answer or an alternate before it; left out"]
                ),
                ("Rome", ["Roma", "Rom"], ["Roma", "Rom"], nil),
                ("Rome", [], [], nil),
            ]
            for (index, expected) in cases.enumerated() {
                let added = try await client.call(
                    "io.shakywords.Packs.AddQuestion",
                    [
                        "pack": "Capitals",
                        "question": question("Capital of Italy, \(index)?", expected.answer, expected.alternates),
                    ])
                #expect(added["question"]?["alternates"] == .array(expected.kept.map(JSONValue.string)), "\(index)")
                #expect(added["warnings"] == expected.warnings, "\(expected.alternates): \(added)")

                let id = try #require(added["question"]?["id"])
                let edited = try await client.call(
                    "io.shakywords.Packs.EditQuestion",
                    [
                        "id": id,
                        "question": question("Italy's capital, \(index)?", expected.answer, expected.alternates),
                    ])
                #expect(edited["question"]?["alternates"] == .array(expected.kept.map(JSONValue.string)), "\(index)")
                #expect(edited["warnings"] == expected.warnings, "\(expected.alternates): \(edited)")
            }
        }
    }
}

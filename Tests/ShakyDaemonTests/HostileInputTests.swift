import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// Numbers no honest client sends: each is refused with a typed error, and the daemon keeps serving.
@Suite("Hostile input")
struct HostileInputTests {
    static let durationFields = ["indicationTime", "timeAfterFirstBuzz", "answerTime", "hintCooldown"]

    @Test(
        "A duration too large for any clock is InvalidSetup naming the field, not a trap",
        arguments: TestDaemon.Mode.allCases)
    func hugeDurations(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            for field in Self.durationFields {
                for seconds in [1e300, 1e19, 18_446_744_073_709_551_616, -1e300, 9.3e15] {
                    let error = try await client.callError(
                        "io.shakywords.Game.New",
                        PartyPack.newGame(teams: ["Owls", "Foxes"], rules: [field: .double(seconds)]))
                    #expect(error.name == "io.shakywords.Game.InvalidSetup", "\(field) = \(seconds)")
                    #expect(error.parameters["message"]?.stringValue?.contains(field) == true, "\(field)")
                }
            }
            // Said as a person reads it: not the 301 digits of 1e300.
            let error = try await client.callError(
                "io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"], rules: ["answerTime": 1e300]))
            #expect(error.parameters["message"] == "answerTime must be between 0 and 3600 seconds, not 1e+300")
            // Still serving: a sound game starts.
            #expect(try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"])).phase == .ready)
        }
    }

    @Test(
        "AdjustScore with the smallest integer is refused as too large, not a trap",
        arguments: TestDaemon.Mode.allCases)
    func smallestIntegerAdjustment(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            for delta in [Int.min, Int.max, Int.min + 1] {
                let error = try await client.callError(
                    "io.shakywords.Game.AdjustScore", ["team": "Owls", "delta": .int(delta), "reason": "x"])
                #expect(error.name == "io.shakywords.Game.Refused", "\(delta)")
                #expect(error.parameters["reason"] == "adjustmentTooLarge", "\(delta)")
            }
            #expect(try await client.status().scores == ["Owls": 0, "Foxes": 0])
        }
    }

    static let evil = "\u{202E}evil\u{1B}[31m"

    @Test(
        "Control characters and bidi overrides in names, questions, answers and reasons are InvalidParameter",
        arguments: TestDaemon.Mode.allCases)
    func controlCharactersAreRefused(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            let calls: [(String, VarlinkObject, String)] = [
                ("Game.New", PartyPack.newGame(teams: ["Owls", Self.evil]), "teams[1]"),
                ("Packs.Create", ["name": "Bad\u{0}Pack"], "name"),
                ("Packs.Rename", ["name": "Party", "newName": "Party\u{7}"], "newName"),
                (
                    "Packs.AddQuestion",
                    ["pack": "Party", "question": ["text": "Q?", "answer": "Owl\u{1B}[2J", "difficulty": "easy"]],
                    "question.answer"
                ),
                (
                    "Packs.AddQuestion",
                    [
                        "pack": "Party",
                        "question": [
                            "text": "Q?\r", "answer": "Owl", "alternates": ["Oh\u{9B}l"], "difficulty": "easy",
                        ],
                    ],
                    "question.alternates[0]"
                ),
                (
                    "Packs.AddQuestion",
                    ["pack": "Party", "question": ["text": "Which\rbird?", "answer": "Owl", "difficulty": "easy"]],
                    "question.text"
                ),
            ]
            for (method, parameters, path) in calls {
                let error = try await client.callError("io.shakywords." + method, parameters)
                #expect(error.name == "org.varlink.service.InvalidParameter", "\(method)")
                #expect(error.parameters["parameter"]?.stringValue == path, "\(method)")
            }
            // A line break inside a question's text is fine, and a CRLF one (a Windows file's) is kept as a line feed.
            try await client.call(
                "io.shakywords.Packs.AddQuestion",
                ["pack": "Party", "question": ["text": "Which bird\nhoots?", "answer": "Owl", "difficulty": "easy"]])
            let windows = try await client.call(
                "io.shakywords.Packs.AddQuestion",
                [
                    "pack": "Party",
                    "question": ["text": "Which cat\r\npurrs?", "answer": "Tabby", "difficulty": "easy"],
                ],
                as: ShakyAPI.PacksInterface.AddQuestionReply.self)
            #expect(windows.question.text == "Which cat\npurrs?")

            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            try await client.game("Next")
            for (method, parameters, path) in [
                ("AdjustScore", ["team": "Owls", "delta": 1, "reason": "late\u{1B}]0;pwned\u{7}"], "reason"),
                ("Buzz", ["team": "Ow\u{202D}ls"], "team"),
            ] as [(String, VarlinkObject, String)] {
                let error = try await client.callError("io.shakywords.Game." + method, parameters)
                #expect(error.name == "org.varlink.service.InvalidParameter", "\(method)")
                #expect(error.parameters["parameter"]?.stringValue == path, "\(method)")
            }
            #expect(try await client.status().scores == ["Owls": 0, "Foxes": 0])
        }
    }

    @Test(
        "A NUL or escape in an imported question is ImportFailed naming its line", arguments: TestDaemon.Mode.allCases)
    func controlCharactersInImports(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let csv =
                "question,answer,difficulty,alternates\nWhich bird hoots?,Owl,easy,\nWhich\u{0} barks?,Dog,easy,\n"
            let failed = try await client.callError(
                "io.shakywords.Packs.Import", ["data": .string(csv), "format": "csv", "name": "Broken"])
            #expect(failed.name == "io.shakywords.Packs.ImportFailed")
            #expect(failed.parameters["line"] == 3)
            #expect(failed.parameters["field"] == "question")
            #expect(failed.parameters["problem"]?.stringValue?.contains("U+0000") == true)

            let json =
                #"{"name": "Broken", "questions": [{"question": "Hoots?", "answer": "O\u001bwl", "difficulty": "easy"}]}"#
            let failedJSON = try await client.callError(
                "io.shakywords.Packs.Import", ["data": .string(json), "format": "json"])
            #expect(failedJSON.name == "io.shakywords.Packs.ImportFailed")
            #expect(failedJSON.parameters["problem"]?.stringValue?.contains("U+001B") == true)
            let missing = try await client.callError("io.shakywords.Packs.Show", ["name": "Broken"])
            #expect(missing.name == "io.shakywords.Packs.PackNotFound")
        }
    }

    @Test(
        "Team names the history would record as one are refused at New, so that game's end is recorded rather than refused",
        arguments: TestDaemon.Mode.allCases)
    func teamNamesTheHistoryFoldsTogether(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            for teams in [["Straße", "STRASSE"], ["Owls", "\u{200B}"], ["Owls", "\u{200B}Owls"]] {
                let error = try await client.callError("io.shakywords.Game.New", PartyPack.newGame(teams: teams))
                #expect(error.name == "io.shakywords.Game.InvalidSetup", "\(teams)")
            }
            try await client.game("New", PartyPack.newGame(teams: ["Straße", "Foxes"]))
            try await client.game("Next")
            #expect(try await client.game("End").phase == .gameOver)
            let recorded = try await CorrectionAfterGameOverTests.history(client).first
            #expect(recorded?.teams.map(\.name) == ["Straße", "Foxes"])
        }
    }
}

import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// Every kind of error reply the daemon's interfaces declare, with its parameters.
@Suite("Error replies")
struct ErrorReplyTests {
    @Test(
        "NoGame before New; GameInProgress without replace; replace ends a started game into history",
        arguments: TestDaemon.Mode.allCases)
    func gameLifecycleErrors(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            for member in ["Status", "Scoreboard", "Next", "Hint", "Pause", "End"] {
                let error = try await client.callError("io.shakywords.Game." + member)
                #expect(error.name == "io.shakywords.Game.NoGame", "\(member)")
                #expect(error.parameters.isEmpty)
            }
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            try await client.game("Next")
            let again = try await client.callError(
                "io.shakywords.Game.New", PartyPack.newGame(teams: ["Cats", "Dogs"]))
            #expect(again.name == "io.shakywords.Game.GameInProgress")
            #expect(try await client.status().scores == ["Owls": 0, "Foxes": 0])

            // A replacement that cannot be set up leaves the game in play alone.
            var invalid = PartyPack.newGame(teams: ["Cats"])
            invalid["replace"] = true
            #expect(
                try await client.callError("io.shakywords.Game.New", invalid).name == "io.shakywords.Game.InvalidSetup")
            #expect(try await client.status().phase == .indication)

            var replacing = PartyPack.newGame(teams: ["Cats", "Dogs"])
            replacing["replace"] = true
            let replaced = try await client.game("New", replacing)
            #expect(replaced.phase == .ready)
            #expect(replaced.scores == ["Cats": 0, "Dogs": 0])
            let history = try await client.call(
                "io.shakywords.Game.History", as: ShakyAPI.GameInterface.HistoryReply.self)
            #expect(history.games.map { $0.teams.map(\.name) } == [["Owls", "Foxes"]])

            // Cats and Dogs never opened a question: replacing them records nothing.
            var replacingUnstarted = PartyPack.newGame(teams: ["Bees", "Ants"])
            replacingUnstarted["replace"] = true
            try await client.game("New", replacingUnstarted)
            let unchanged = try await client.call(
                "io.shakywords.Game.History", as: ShakyAPI.GameInterface.HistoryReply.self)
            #expect(unchanged.games.count == 1)
        }
    }

    @Test(
        "InvalidSetup says what is wrong: one team, more questions than eligible, an unknown pack",
        arguments: TestDaemon.Mode.allCases)
    func invalidSetup(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            let oneTeam = try await client.callError(
                "io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls"]))
            #expect(oneTeam.name == "io.shakywords.Game.InvalidSetup")
            #expect(oneTeam.parameters["message"] == "a game needs 2 to 8 teams, not 1")

            let tooMany = try await client.callError(
                "io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 5))
            #expect(tooMany.name == "io.shakywords.Game.InvalidSetup")
            #expect(
                tooMany.parameters["message"]
                    == "asked for 5 questions but the chosen packs hold only 2 eligible questions (difficulty: any)")

            let unknownPack = try await client.callError(
                "io.shakywords.Game.New", ["teams": ["Owls", "Foxes"], "packs": ["Nope"]])
            #expect(unknownPack.name == "io.shakywords.Game.InvalidSetup")
            // Said as the other InvalidSetup messages are (shaky prints them after "shaky: ").
            #expect(
                unknownPack.parameters["message"] == "there is no pack named “Nope” (`shaky pack list` lists them)")

            // A pack's name typed without its accents: the one it could be is named.
            try await client.call("io.shakywords.Packs.Create", ["name": "Soirée quiz"])
            let unaccented = try await client.callError(
                "io.shakywords.Game.New", ["teams": ["Owls", "Foxes"], "packs": ["soiree quiz"]])
            #expect(
                unaccented.parameters["message"]?.stringValue
                    == "there is no pack named “soiree quiz”; did you mean “Soirée quiz”? "
                    + "(`shaky pack list` lists them)")

            let badRules = try await client.callError(
                "io.shakywords.Game.New",
                ["teams": ["Owls", "Foxes"], "packs": ["Party"], "questions": 1, "rules": ["indicationTime": 0]])
            #expect(badRules.name == "io.shakywords.Game.InvalidSetup")
            #expect(badRules.parameters["message"]?.stringValue?.contains("indicationTime") == true)

            let status = try await client.callError("io.shakywords.Game.Status")
            #expect(status.name == "io.shakywords.Game.NoGame")
        }
    }

    @Test("Refused names the rule a move breaks", arguments: TestDaemon.Mode.allCases)
    func refusedReasons(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes", "Bees"]))

            func expectRefused(
                _ member: String, _ parameters: VarlinkObject = [:], reason: String, message: String? = nil,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws {
                let error = try await client.callError("io.shakywords.Game." + member, parameters)
                #expect(error.name == "io.shakywords.Game.Refused", sourceLocation: sourceLocation)
                #expect(error.parameters["reason"] == .string(reason), sourceLocation: sourceLocation)
                if let message {
                    #expect(error.parameters["message"] == .string(message), sourceLocation: sourceLocation)
                }
            }

            try await expectRefused("Buzz", ["team": "Owls"], reason: "roundNotOpen")
            try await expectRefused("Answer", ["team": "Owls", "answer": "x"], reason: "noAnswerExpected")
            try await expectRefused("Skip", reason: "noQuestionInPlay")
            try await expectRefused("Pause", reason: "nothingToPause")
            try await client.game("Next")
            try await expectRefused("Next", reason: "questionInPlay")
            try await expectRefused("Answer", ["team": "Owls", "answer": "x"], reason: "notAnsweringYet")
            try await expectRefused(
                "Buzz", ["team": "Wolves"], reason: "unknownTeam",
                message: "no team called “Wolves” plays in this game")
            try await client.game("Hint")
            try await expectRefused("Hint", reason: "hintCoolingDown")
            try await client.game("Buzz", ["team": "Owls"])
            try await expectRefused(
                "Buzz", ["team": "owls"], reason: "alreadyBuzzed", message: "Owls has already buzzed for this question")
            try await client.game("Pause")
            try await expectRefused("Pause", reason: "alreadyPaused")
            try await expectRefused(
                "Buzz", ["team": "Foxes"], reason: "gamePaused",
                message: "the game is paused; resume it first (shaky resume, or p in shaky play)")
            try await client.game("Resume")
            try await expectRefused("Resume", reason: "notPaused")
            try await client.game("Buzz", ["team": "Foxes"])
            try await client.advance(by: .seconds(20))
            try await expectRefused(
                "Answer", ["team": "Foxes", "answer": "x"], reason: "notYourTurn",
                message: "it is Owls' turn to answer, not Foxes'")
            try await expectRefused(
                "Answer", ["team": "Owls", "answer": .string(String(repeating: "a", count: 100_000))],
                reason: "answerTooLong",
                message: "an answer is at most 200 characters, not 100000; nothing was judged")
            try await expectRefused(
                "AdjustScore", ["team": "Owls", "delta": 0, "reason": "x"], reason: "zeroAdjustment")
            try await expectRefused(
                "AdjustScore", ["team": "Owls", "delta": 5000, "reason": "x"], reason: "adjustmentTooLarge")
            try await expectRefused(
                "AdjustScore", ["team": "Owls", "delta": 1, "reason": "  "], reason: "missingReason")
            try await expectRefused(
                "AdjustScore", ["team": "Owls", "delta": 1, "reason": .string(String(repeating: "x", count: 300_000))],
                reason: "reasonTooLong")
            // 200 characters, each a letter with eight accents: too many code points, the same rule.
            let stacked = String(repeating: "a" + String(repeating: "\u{301}", count: 8), count: 200)
            try await expectRefused(
                "AdjustScore", ["team": "Owls", "delta": 1, "reason": .string(stacked)], reason: "reasonTooLong",
                message: "a score adjustment's reason holds 1800 Unicode code points (marks stacked on its letters); "
                    + "at most 1600 are allowed")
            try await client.game("End")
            // The host who wants to play again is told how.
            try await expectRefused(
                "Next", reason: "gameIsOver",
                message: "the game is over; only an overrule or a score adjustment can still change it, and a new game "
                    + "starts with `shaky new --team NAME --team NAME`")
            // A refused move changes nothing.
            #expect(try await client.status().scores == ["Owls": 0, "Foxes": 0, "Bees": 0])
        }
    }

    @Test(
        "Packs errors: PackNotFound, PackReadOnly, PackExists, QuestionNotFound, InvalidPack, ImportFailed",
        arguments: TestDaemon.Mode.allCases)
    func packsErrors(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let notFound = try await client.callError("io.shakywords.Packs.Show", ["name": "Nope"])
            #expect(notFound.name == "io.shakywords.Packs.PackNotFound")
            #expect(notFound.parameters == ["name": "Nope"])

            let question: JSONValue = ["text": "Which bird hoots?", "answer": "Owl", "difficulty": "easy"]
            let readOnly = try await client.callError(
                "io.shakywords.Packs.AddQuestion", ["pack": "Animals", "question": question])
            #expect(readOnly.name == "io.shakywords.Packs.PackReadOnly")
            #expect(readOnly.parameters == ["name": "Animals"])
            let renameBuiltin = try await client.callError(
                "io.shakywords.Packs.Rename", ["name": "Animals", "newName": "Beasts"])
            #expect(renameBuiltin.name == "io.shakywords.Packs.PackReadOnly")
            let deleteBuiltin = try await client.callError("io.shakywords.Packs.Delete", ["name": "Animals"])
            #expect(deleteBuiltin.name == "io.shakywords.Packs.PackReadOnly")

            let exists = try await client.callError("io.shakywords.Packs.Create", ["name": "animals"])
            #expect(exists.name == "io.shakywords.Packs.PackExists")
            #expect(exists.parameters["name"]?.stringValue?.lowercased() == "animals")

            let noQuestion = try await client.callError("io.shakywords.Packs.DeleteQuestion", ["id": 999_999])
            #expect(noQuestion.name == "io.shakywords.Packs.QuestionNotFound")
            #expect(noQuestion.parameters == ["id": 999_999])

            let badName = try await client.callError("io.shakywords.Packs.Create", ["name": "   "])
            #expect(badName.name == "io.shakywords.Packs.InvalidPack")
            #expect(badName.parameters["message"]?.stringValue?.isEmpty == false)

            let csv = """
                question,answer,difficulty,alternates
                Which bird hoots?,Owl,easy,
                Which animal barks?,Dog,impossible,
                """
            let failed = try await client.callError(
                "io.shakywords.Packs.Import", ["data": .string(csv), "format": "csv", "name": "Broken"])
            #expect(failed.name == "io.shakywords.Packs.ImportFailed")
            #expect(failed.parameters["line"] == 3)
            #expect(failed.parameters["field"] == "difficulty")
            #expect(failed.parameters["problem"]?.stringValue?.contains("impossible") == true)
            // Nothing was imported.
            let missing = try await client.callError("io.shakywords.Packs.Show", ["name": "Broken"])
            #expect(missing.name == "io.shakywords.Packs.PackNotFound")
        }
    }

    @Test("Settings: a volume of 2 is InvalidSetting and changes nothing", arguments: TestDaemon.Mode.allCases)
    func invalidSetting(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let before = try await client.call("io.shakywords.Settings.Get")
            let error = try await client.callError("io.shakywords.Settings.Set", ["volume": 2, "sound": false])
            #expect(error.name == "io.shakywords.Settings.InvalidSetting")
            #expect(error.parameters["name"] == "volume")
            #expect(error.parameters["message"] == "volume must be between 0 and 1")
            #expect(try await client.call("io.shakywords.Settings.Get") == before)
        }
    }

    @Test("The protocol's own errors on the daemon's interfaces", arguments: TestDaemon.Mode.allCases)
    func protocolErrors(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let watch = try await client.callError("io.shakywords.Game.Watch")
            #expect(watch.name == "org.varlink.service.ExpectedMore")
            let unknown = try await client.callError(
                "io.shakywords.Game.New", ["teams": ["Owls", "Foxes"], "colour": "red"])
            #expect(unknown.name == "org.varlink.service.InvalidParameter")
            #expect(unknown.parameters == ["parameter": "colour"])
            let wrongType = try await client.callError("io.shakywords.Game.Buzz", ["team": 3])
            #expect(wrongType.parameters == ["parameter": "team"])
            // A value the interface does not list is refused, even in an optional field (clients read one in a
            // reply as absent; the daemon never takes one).
            let unknownValues: [(VarlinkObject, String)] = [
                (["difficulty": "extreme"], "difficulty"), (["rules": ["buzzerMode": "relay"]], "rules.buzzerMode"),
            ]
            for (parameters, parameter) in unknownValues {
                let refused = try await client.callError(
                    "io.shakywords.Game.New", parameters.merging(["teams": ["Owls", "Foxes"]]) { first, _ in first })
                #expect(refused.name == "org.varlink.service.InvalidParameter")
                #expect(refused.parameters == ["parameter": .string(parameter)])
            }
            let unknownSensitivity = try await client.callError(
                "io.shakywords.Settings.Set", ["sensitivity": "extreme"])
            #expect(unknownSensitivity.parameters == ["parameter": "sensitivity"])
            // A negative number of lines is refused, not read as none.
            for method in ["io.shakywords.Game.History", "io.shakywords.Game.Leaderboard"] {
                let negative = try await client.callError(method, ["limit": -1])
                #expect(negative.name == "org.varlink.service.InvalidParameter", "\(method)")
                #expect(negative.parameters == ["parameter": "limit"], "\(method)")
            }
            let negativeSearch = try await client.callError("io.shakywords.Packs.Search", ["text": "a", "limit": -1])
            #expect(negativeSearch.parameters == ["parameter": "limit"], "a search's limit too, not an empty list")
            let method = try await client.callError("io.shakywords.Game.Shake")
            #expect(method.name == "org.varlink.service.MethodNotFound")
            let interface = try await client.callError("io.shakywords.Scores.List")
            #expect(interface.name == "org.varlink.service.InterfaceNotFound")
        }
    }
}

import ShakyDaemon
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's interfaces through an independent client, the PyPI `varlink` package: its command line and its
/// library (which parses the served descriptions; the script below also checks every reply against them strictly).
@Suite("Independent client: python varlink against the daemon")
struct PythonVarlinkDaemonTests {
    @Test("varlink.cli info names the daemon and its interfaces")
    func info() async throws {
        try await TestDaemon.run(.socket) { client in
            let output = try await PythonVarlink.cli(["info", client.address])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout == """
                    Vendor: Shaky Words
                    Product: shakyd
                    Version: \(ShakyService.version)
                    URL: https://shakywords.invalid/
                    Interfaces:
                       org.varlink.service
                       io.shakywords.Game
                       io.shakywords.Packs
                       io.shakywords.Sensor
                       io.shakywords.Settings
                       io.shakywords.Buzzers

                    """)
        }
    }

    @Test("varlink.cli help prints each io.shakywords interface exactly as served")
    func help() async throws {
        try await TestDaemon.run(.socket) { client in
            let descriptions = [
                "io.shakywords.Game": ShakyAPI.GameInterface.description,
                "io.shakywords.Packs": ShakyAPI.PacksInterface.description,
                "io.shakywords.Sensor": ShakyAPI.SensorInterface.description,
                "io.shakywords.Settings": ShakyAPI.SettingsInterface.description,
            ]
            for (name, description) in descriptions.sorted(by: { $0.key < $1.key }) {
                let output = try await PythonVarlink.cli(["help", "\(client.address)/\(name)"])
                #expect(output.status == 0, "\(output.stderr)")
                #expect(output.stdout == description + "\n", "\(name)")
                let served = try await client.call(
                    "org.varlink.service.GetInterfaceDescription", ["interface": .string(name)])
                #expect(served["description"] == .string(description))
            }
        }
    }

    @Test("A whole game with varlink.cli call")
    func wholeGameWithTheCommandLine() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            func call(_ member: String, _ parameters: String = "{}") async throws -> JSONValue {
                let output = try await PythonVarlink.cli([
                    "call", "\(client.address)/io.shakywords.Game.\(member)", parameters,
                ])
                #expect(output.status == 0, "\(member): \(output.stderr)")
                return try JSONValue(parsing: output.stdout)
            }
            var reply = try await call(
                "New", #"{"teams": ["Owls", "Foxes"], "packs": ["Party"], "questions": 1, "seed": 7}"#)
            #expect(reply["status"]?["phase"] == "ready")
            reply = try await call("Next")
            #expect(reply["status"]?["phase"] == "indication")
            let answer = try PartyPack.answer(to: reply["status"]?["question"]?.stringValue)
            reply = try await call("Hint")
            #expect(reply["status"]?["points"] == 8)
            reply = try await call("Buzz", #"{"team": "Owls"}"#)
            #expect(reply["status"]?["buzzes"]?.arrayValue?.count == 1)
            reply = try await call("Buzz", #"{"team": "Foxes"}"#)
            #expect(reply["status"]?["phase"] == "answering")
            #expect(reply["status"]?["teamUp"] == "Owls")
            reply = try await call("Answer", #"{"team": "Owls", "answer": "Zebra"}"#)
            #expect(reply["correct"] == false)
            #expect(reply["status"]?["teamUp"] == "Foxes")
            reply = try await call("Answer", #"{"team": "Foxes", "answer": "\#(answer)"}"#)
            #expect(reply["correct"] == true)
            #expect(reply["status"]?["teams"] == [["name": "Owls", "score": 0], ["name": "Foxes", "score": 8]])
            reply = try await call("Next")
            #expect(reply["status"]?["phase"] == "gameOver")
            #expect(reply["status"]?["result"]?["winners"] == ["Foxes"])
            reply = try await call("History")
            #expect(reply["games"]?.arrayValue?.count == 1)

            let refused = try await PythonVarlink.cli([
                "call", "\(client.address)/io.shakywords.Game.Buzz", #"{"team": "Owls"}"#,
            ])
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.contains("io.shakywords.Game.Refused"), "\(refused.stderr)")
            #expect(refused.stderr.contains("gameIsOver"), "\(refused.stderr)")
        }
    }

    @Test("varlink.cli call --more on Watch prints the state, then events; killing it drops the watcher")
    func watchWithTheCommandLine() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            let watcher = try PythonVarlink.start([
                "-m", "varlink.cli", "call", "--more", "\(client.address)/io.shakywords.Game.Watch", "{}",
            ])
            try await watcher.waitForOutput(containing: #""kind": "state""#)
            try await waitUntil("the watcher is registered") { client.daemon.watchers.count == 1 }
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            try await client.game("Next")
            try await watcher.waitForOutput(containing: #""kind": "roundStarted""#)
            try await client.game("Buzz", ["team": "Foxes"])
            try await watcher.waitForOutput(containing: #""kind": "buzz""#)
            try await client.game("Skip")
            try await watcher.waitForOutput(containing: #""phase": "roundOver""#)
            let replies = watcher.standardOutput.components(separatedBy: "\n}\n").filter { !$0.isEmpty }.map {
                $0 + "\n}"
            }
            let events = try replies.compactMap { try JSONValue(parsing: $0)["event"] }
            #expect(
                events.map { $0["kind"]?.stringValue }
                    == ["state", "state", "phaseChanged", "roundStarted", "buzz", "answerRevealed", "phaseChanged"])
            let revealed = events.first { $0["kind"] == "answerRevealed" }
            #expect(revealed?["roundEnd"] == "skipped", "a skip is told as such, not as the time running out")
            watcher.send(SIGKILL)
            try await watcher.waitForExit(within: .seconds(10))
            try await waitUntil("the watcher is dropped") { client.daemon.watchers.count == 0 }
            // The game goes on for everyone else.
            #expect(try await client.status().buzzes.map(\.team) == ["Foxes"])
        }
    }

    @Test("varlink.cli call --more on Buzzers.Watch hears presses that did nothing and a joining a new game ended")
    func buzzersWatchWithTheCommandLine() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let buzzers = client.daemon.buzzers
            await buzzers.handle(.attached(BuzzersInterfaceTests.buzz))
            let watcher = try PythonVarlink.start([
                "-m", "varlink.cli", "call", "--more", "\(client.address)/io.shakywords.Buzzers.Watch", "{}",
            ])
            try await waitUntil("the watcher is registered") { await buzzers.watcherCount == 1 }
            await buzzers.handle(BuzzersInterfaceTests.press(key: 0x2ca, kernelMilliseconds: 1_000))
            try await client.call("io.shakywords.Buzzers.Join")
            await buzzers.handle(BuzzersInterfaceTests.press(key: 0x2c5, kernelMilliseconds: 2_000))
            await buzzers.handle(BuzzersInterfaceTests.press(key: 0x2c5, kernelMilliseconds: 2_500))
            try await client.game(
                "New", PartyPack.newGame(teams: ["Bears", "Wolves"]).merging(["replace": true]) { $1 })
            try await watcher.waitForOutput(containing: #""kind": "joinEnded""#)
            let replies = watcher.standardOutput.components(separatedBy: "\n}\n").filter { !$0.isEmpty }.map {
                $0 + "\n}"
            }
            let events = try replies.compactMap { try JSONValue(parsing: $0)["event"] }
            #expect(
                events.map { $0["kind"]?.stringValue }
                    == ["pressed", "joinAsking", "joined", "joinAsking", "pressed", "joinEnded"])
            #expect(events.first?["outcome"] == "unassigned")
            #expect(events.first?["keyName"] == "BTN_TRIGGER_HAPPY11")
            #expect(events.first?["path"] == "/dev/input/event30")
            #expect(events.dropLast().last?["outcome"] == "taken")
            #expect(events.dropLast().last?["team"] == "Owls")
            #expect(events.dropLast().last?["asking"] == "Foxes")
            #expect(events.last?["team"] == "Foxes")
            watcher.send(SIGKILL)
            try await watcher.waitForExit(within: .seconds(10))
        }
    }

    @Test("The python library plays a whole game and uses Packs, Sensor and Settings; every reply fits the IDL")
    func libraryClient() async throws {
        try await TestDaemon.run(.socket) { client in
            let answers = Dictionary(uniqueKeysWithValues: PartyPack.questions.map { ($0.text, $0.answer) })
            let output = try await PythonVarlink.run([
                "-c", Self.script, client.address, JSONValue.object(answers.mapValues(JSONValue.string)).serialized,
            ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout.split(separator: "\n") == [
                    "created Party 0", "edited True [True]", "added 2", "shown 2 easy 1 medium 1", "found Elephant",
                    "accents Places with Accents", "imported Party Copy 2", "duplicated True", "renamed Beasts",
                    "packs 9", "new ready", "next indication 10 60.0", "hint 8 1", "buzz 2 answering Owls",
                    "wrong False Foxes Zebra", "right True Foxes 8 answered [0, 8]", "adjusted Owls 2", "paused True",
                    "resumed False", "skipped roundOver skipped", "over gameOver Foxes", "status gameOver",
                    "scoreboard Foxes 8 1",
                    "history 1 Foxes", "leaderboard Foxes 1 8", "watch state gameOver", "refused gameIsOver",
                    "sensor absent medium", "settings True 1.0 medium", "set False 0.25 light",
                    "get False 0.25 light",
                ])
            let checked = output.stderr.split(separator: "\n").last { $0.hasPrefix("checked ") }
            #expect(
                checked.flatMap { Int($0.dropFirst("checked ".count)) }.map { $0 >= 30 } == true, "\(output.stderr)")
        }
    }

    /// A python program: argv[1] the address, argv[2] the Party pack's answers by question (JSON).
    static let script = #"""
        import json, sys, varlink
        from varlink.scanner import _Alias, _Array, _CustomType, _Dict, _Enum, _Maybe, _Object, _Struct

        address, answers = sys.argv[1], json.loads(sys.argv[2])
        checked = 0

        def check(interface, kind, value, path):
            """Checks a reply strictly against the IDL: required fields present, no unknown fields, enum values."""
            if isinstance(kind, _Maybe):
                if value is not None:
                    check(interface, kind.element_type, value, path)
                return
            assert value is not None, path + " is missing"
            if isinstance(kind, _CustomType):
                check(interface, interface.members[kind.name], value, path)
            elif isinstance(kind, _Alias):
                check(interface, kind.type, value, path)
            elif isinstance(kind, _Object):
                pass
            elif isinstance(kind, _Enum):
                assert value in list(kind.fields), "%s: %r is not one of %s" % (path, value, list(kind.fields))
            elif isinstance(kind, _Array):
                assert isinstance(value, list), path
                for index, item in enumerate(value):
                    check(interface, kind.element_type, item, "%s[%d]" % (path, index))
            elif isinstance(kind, _Dict):
                assert isinstance(value, dict), path
                for key, item in value.items():
                    check(interface, kind.element_type, item, "%s[%s]" % (path, key))
            elif isinstance(kind, _Struct):
                assert isinstance(value, dict), path
                unknown = set(value) - set(kind.fields)
                assert not unknown, "%s has undeclared fields %s" % (path, sorted(unknown))
                for name, field in kind.fields.items():
                    check(interface, field, value.get(name), path + "." + name)
            elif isinstance(kind, bool):
                assert isinstance(value, bool), path
            elif isinstance(kind, float):
                assert isinstance(value, (int, float)) and not isinstance(value, bool), path
            elif isinstance(kind, int):
                assert isinstance(value, int) and not isinstance(value, bool), path
            elif isinstance(kind, str):
                assert isinstance(value, str), path
            else:
                raise AssertionError("%s: unexpected type %r" % (path, kind))

        def strict(handler):
            interface = handler._interface
            loose = interface.filter_params
            def filter_params(parent, kind, namespaced, args, kwargs):
                global checked
                if parent == "client.reply":
                    check(interface, kind, args, interface.name)
                    checked += 1
                return loose(parent, kind, namespaced, args, kwargs)
            interface.filter_params = filter_params
            return handler

        with varlink.Client(address=address) as client, \
                strict(client.open("io.shakywords.Game")) as game, \
                strict(client.open("io.shakywords.Packs")) as packs, \
                strict(client.open("io.shakywords.Sensor")) as sensor, \
                strict(client.open("io.shakywords.Settings")) as settings:
            pack = packs.Create(name="Party")["pack"]
            print("created", pack["name"], pack["questions"])
            for text, answer in sorted(answers.items()):
                added = packs.AddQuestion(pack="Party", question={"text": text, "answer": answer, "difficulty": "easy"})
                assert added.get("warnings") is None, added
            edited = packs.EditQuestion(id=packs.Show(name="Party")["questions"][1]["id"],
                question={"text": "Which animal has the longest neck?", "answer": "Giraffe",
                    "alternates": ["Camelopard", "", "GIRAFFE"], "difficulty": "medium"})
            print("edited", edited["question"]["alternates"] == ["Camelopard"],
                [warning.endswith("; left out") for warning in edited["warnings"]])
            shown = packs.Show(name="Party")
            print("added", len(shown["questions"]))
            print("shown", shown["pack"]["questions"], "easy", shown["pack"]["easy"], "medium", shown["pack"]["medium"])
            print("found", packs.Search(text="ELEPHANT", pack="Party")["questions"][0]["answer"])
            print("accents", packs.Search(text="reykjavik")["questions"][0]["pack"])
            data = packs.Export(name="Party", format="csv")["data"]
            copy = packs.Import(data=data, format="csv", name="Party Copy")["pack"]
            print("imported", copy["name"], copy["questions"])
            animals = [pack for pack in packs.List()["packs"] if pack["name"] == "Animals"][0]["questions"]
            duplicate = packs.Duplicate(name="Animals", newName="Zoo")["pack"]
            print("duplicated", duplicate["questions"] == animals and not duplicate["builtin"])
            print("renamed", packs.Rename(name="Zoo", newName="Beasts")["pack"]["name"])
            packs.DeleteQuestion(id=packs.Show(name="Beasts")["questions"][0]["id"])
            packs.Delete(name="Beasts")
            print("packs", len(packs.List()["packs"]))

            status = game.New(teams=["Owls", "Foxes"], packs=["Party"], questions=2, seed=7,
                rules={"hintCooldown": 0})["status"]
            print("new", status["phase"])
            status = game.Next()["status"]
            print("next", status["phase"], status["points"], status["countdownLength"])
            answer = answers[status["question"]]
            status = game.Hint()["status"]
            print("hint", status["points"], status["hintsUsed"])
            game.Buzz(team="Owls")
            status = game.Buzz(team="Foxes")["status"]
            print("buzz", len(status["buzzes"]), status["phase"], status["teamUp"])
            reply = game.Answer(team="Owls", answer="Zebra")
            print("wrong", reply["correct"], reply["status"]["teamUp"], reply["status"]["judgements"][0]["given"])
            reply = game.Answer(team="Foxes", answer=answer)
            print("right", reply["correct"], reply["status"]["roundWinner"], reply["status"]["teams"][1]["score"],
                reply["status"]["roundEnd"], [entry["awarded"] for entry in reply["status"]["judgements"]])
            status = game.AdjustScore(team="Owls", delta=2, reason="good sport")["status"]
            print("adjusted", status["teams"][0]["name"], status["teams"][0]["score"])
            game.Next()
            print("paused", game.Pause()["status"]["paused"])
            print("resumed", game.Resume()["status"]["paused"])
            status = game.Skip()["status"]
            print("skipped", status["phase"], status["roundEnd"])
            status = game.Next()["status"]
            print("over", status["phase"], status["result"]["winners"][0])
            print("status", game.Status()["status"]["phase"])
            standing = game.Scoreboard()["standings"][0]
            print("scoreboard", standing["team"], standing["points"], standing["rank"])
            games = game.History(limit=5)["games"]
            print("history", len(games), games[0]["winners"][0])
            entry = game.Leaderboard()["entries"][0]
            print("leaderboard", entry["team"], entry["wins"], entry["points"])
            with varlink.Client(address=address) as watching, strict(watching.open("io.shakywords.Game")) as watcher:
                event = next(watcher.Watch(_more=True))["event"]
                print("watch", event["kind"], event["status"]["phase"])
            try:
                game.Buzz(team="Owls")
            except varlink.VarlinkError as error:
                print("refused", error.parameters()["reason"])
            state = sensor.Status()["sensor"]
            print("sensor", state["state"], state["sensitivity"])
            current = settings.Get()["settings"]
            print("settings", current["sound"], current["volume"], current["sensitivity"])
            current = settings.Set(sound=False, volume=0.25, sensitivity="light")["settings"]
            print("set", current["sound"], current["volume"], current["sensitivity"])
            current = settings.Get()["settings"]
            print("get", current["sound"], current["volume"], current["sensitivity"])
        print("checked", checked, file=sys.stderr)
        """#
}

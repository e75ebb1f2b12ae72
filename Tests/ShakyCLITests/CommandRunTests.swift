import Foundation
import ShakyProtocol
import Testing
import Varlink

@testable import ShakyCLI

/// Commands run in-process against a fake daemon: the calls they make, what they print, their exit status.
@Suite struct CommandRunTests {
    func shaky(_ daemon: FakeDaemon, _ arguments: [String]) async -> ShakyOutcome {
        await runInProcess(arguments + ["--socket", daemon.socketPath])
    }

    @Test func newSendsTheSetupAndShowsTheGame() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.New", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            let outcome = await shaky(
                daemon, ["new", "--team", "Owls", "--team", "Foxes", "--pack", "Animals", "--answer-time", "15"])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output == TextRenderer.status(Fixtures.ready, style: .plain) + "\n")
            #expect(
                daemon.calls == [
                    .init("Game.New", ["teams": ["Owls", "Foxes"], "packs": ["Animals"], "rules": ["answerTime": 15]])
                ])
        }
    }

    @Test func scoreSendsANegativeDelta() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.AdjustScore",
                with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            #expect(await shaky(daemon, ["score", "Owls", "-3", "--reason", "rude"]).status == 0)
            #expect(await shaky(daemon, ["score", "Foxes", "+2"]).status == 0)
            #expect(
                daemon.calls == [
                    .init("Game.AdjustScore", ["team": "Owls", "delta": -3, "reason": "rude"]),
                    .init("Game.AdjustScore", ["team": "Foxes", "delta": 2, "reason": "adjusted by the host"]),
                ])
        }
    }

    @Test func gameMovesCallTheirMethods() async throws {
        try await FakeDaemon.run { daemon in
            for method in ["Next", "Hint", "Pause", "Resume", "Skip", "End", "Buzz"] {
                daemon.answer(
                    "Game.\(method)",
                    with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            }
            daemon.answer(
                "Game.Answer",
                with: .reply(encoding: ShakyAPI.GameInterface.AnswerReply(correct: false, status: Fixtures.answering)))
            for arguments in [["next"], ["hint"], ["pause"], ["resume"], ["skip"], ["end"], ["buzz", "Owls"]] {
                let outcome = await shaky(daemon, arguments)
                #expect(outcome.status == 0, "\(arguments): \(outcome)")
                #expect(outcome.output.contains("[T] G I R E"))
            }
            let answer = await shaky(daemon, ["answer", "Owls", "snow", "leopard"])
            #expect(answer.output.hasPrefix("Wrong.\n"))
            #expect(
                daemon.calls.map(\.method).map { $0.replacingOccurrences(of: "io.shakywords.Game.", with: "") }
                    == ["Next", "Hint", "Pause", "Resume", "Skip", "End", "Buzz", "Answer"])
            #expect(daemon.calls.last?.parameters == ["team": "Owls", "answer": "snow leopard"])
        }
    }

    @Test func jsonPrintsTheReplyWithSortedKeys() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Scoreboard",
                with: .reply(encoding: ShakyAPI.GameInterface.ScoreboardReply(standings: Fixtures.standings)))
            let outcome = await shaky(daemon, ["scoreboard", "--json"])
            #expect(outcome.status == 0)
            let decoded = try JSONDecoder().decode(
                ShakyAPI.GameInterface.ScoreboardReply.self, from: Data(outcome.output.utf8))
            #expect(decoded.standings == Fixtures.standings)
            #expect(outcome.output.hasPrefix("{\n  \"standings\" : [\n    {\n      \"averageBuzzTime\" : 4.25,\n"))
        }
    }

    @Test func readCommandsPrintForPeople() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer(
                "Game.Scoreboard",
                with: .reply(encoding: ShakyAPI.GameInterface.ScoreboardReply(standings: Fixtures.standings)))
            daemon.answer(
                "Packs.List", with: .reply(encoding: ShakyAPI.PacksInterface.ListReply(packs: [Fixtures.animals])))
            daemon.answer(
                "Settings.Get",
                with: .reply(
                    encoding: ShakyAPI.SettingsInterface.GetReply(
                        settings: .init(sound: true, volume: 1, sensitivity: .medium))))
            #expect(
                await shaky(daemon, ["status"]).output == TextRenderer.status(Fixtures.answering, style: .plain) + "\n")
            #expect(await shaky(daemon, ["scoreboard"]).output == TextRenderer.scoreboard(Fixtures.standings) + "\n")
            #expect(await shaky(daemon, ["pack", "list"]).output == TextRenderer.packs([Fixtures.animals]) + "\n")
            #expect(await shaky(daemon, ["settings"]).output == "Sound: on · volume 1.00 · sensitivity medium\n")
        }
    }

    @Test func settingsSendOnlyWhatChanges() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Settings.Set",
                with: .reply(
                    encoding: ShakyAPI.SettingsInterface.GetReply(
                        settings: .init(sound: false, volume: 1, sensitivity: .hard))))
            let outcome = await shaky(daemon, ["settings", "--sound", "off", "--sensitivity", "hard"])
            #expect(outcome.status == 0)
            #expect(daemon.calls == [.init("Settings.Set", ["sound": false, "sensitivity": "hard"])])
        }
    }

    @Test func daemonErrorsExitWithOneAndTheMessage() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Packs.Show", with: .error("PackNotFound", ["name": "Animals"]))
            daemon.answer(
                "Game.Buzz", with: .error("Refused", ["reason": "notOpen", "message": "no question is open"]))
            let show = await shaky(daemon, ["pack", "show", "Animals"])
            #expect(show.status == 1)
            #expect(show.error == "shaky: no such pack: “Animals”\n")
            #expect(show.output.isEmpty)
            let buzz = await shaky(daemon, ["buzz", "Owls"])
            #expect(buzz.status == 1)
            #expect(buzz.error == "shaky: no question is open\n")
        }
    }

    @Test func importReadsTheFileAndDetectsItsFormat() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Packs.Import", with: .reply(encoding: ShakyAPI.PacksInterface.CreateReply(pack: Fixtures.animals)))
            let file = "/tmp/shaky-cli-import-\(UUID().uuidString.prefix(8)).csv"
            let contents = "question,answer,difficulty,alternates\nWhat big cat has stripes?,Tiger,easy,Tigress\n"
            try contents.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let outcome = await shaky(daemon, ["pack", "import", file, "--name", "Cats"])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.hasPrefix("Imported Animals (built-in)"))
            #expect(
                daemon.calls == [.init("Packs.Import", ["data": .string(contents), "format": "csv", "name": "Cats"])])
        }
    }

    @Test func importOfAMissingFileFailsBeforeCallingTheDaemon() async throws {
        try await FakeDaemon.run { daemon in
            let outcome = await shaky(daemon, ["pack", "import", "/tmp/shaky-cli-no-such-file.json"])
            #expect(outcome.status == 1)
            #expect(outcome.error.hasPrefix("shaky: cannot read /tmp/shaky-cli-no-such-file.json"))
            #expect(daemon.calls.isEmpty)
        }
    }

    @Test func exportWritesStandardOutputOrAFile() async throws {
        try await FakeDaemon.run { daemon in
            // The daemon's CSV has CRLF line breaks, which must reach the file as they are.
            daemon.answer("Packs.Export", with: .reply(["data": "question,answer\r\nQ?,A\r\n"]))
            let printed = await shaky(daemon, ["pack", "export", "Animals", "--format", "csv"])
            #expect(printed.output == "question,answer\r\nQ?,A\r\n")
            let file = "/tmp/shaky-cli-export-\(UUID().uuidString.prefix(8)).csv"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let written = await shaky(daemon, ["pack", "export", "Animals", "--output", file])
            #expect(written.status == 0)
            #expect(written.output.isEmpty)
            let contents = try String(contentsOfFile: file, encoding: .utf8)
            #expect(contents == "question,answer\r\nQ?,A\r\n")
            #expect(
                daemon.calls == [
                    .init("Packs.Export", ["name": "Animals", "format": "csv"]),
                    .init("Packs.Export", ["name": "Animals", "format": "csv"]),
                ])
        }
    }

    /// `pack add` and `pack edit` say the warnings of the daemon's reply, and none of their own: they found the
    /// alternates left out by a copy of the store's rule. A reply without `warnings` (an older daemon's) says nothing.
    @Test func addAndEditPrintTheWarningsOfTheReply() async throws {
        try await FakeDaemon.run { daemon in
            guard case .object(let stored) = try JSONValue(encoding: Fixtures.tigerQuestion) else { return }
            let warning = "the alternate “TIGER” repeats the answer or an alternate before it; left out"
            let zoo = ShakyAPI.Pack(name: "Zoo", builtin: false, questions: 1, easy: 1, medium: 0, hard: 0)
            daemon.answer("Packs.List", with: .reply(encoding: ShakyAPI.PacksInterface.ListReply(packs: [zoo])))
            daemon.answer(
                "Packs.Show",
                with: .reply(
                    encoding: ShakyAPI.PacksInterface.ShowReply(pack: zoo, questions: [Fixtures.tigerQuestion])))
            let add = [
                "pack", "add", "Zoo", "--question", "What big cat has stripes?", "--answer", "Tiger",
                "--alternate", "Tigress", "--alternate", "TIGER",
            ]
            let edit = ["pack", "edit", "12", "--alternate", "Tigress", "--alternate", "TIGER"]
            for method in ["AddQuestion", "EditQuestion"] {
                daemon.answer(
                    "Packs.\(method)", with: .reply(["question": .object(stored), "warnings": [.string(warning)]]))
            }
            for arguments in [add, edit] {
                let warned = await shaky(daemon, arguments)
                #expect(warned.status == 0, "\(arguments): \(warned)")
                #expect(warned.error == "shaky: warning: \(warning)\n", "\(arguments): \(warned)")
            }
            // With --json the warnings are in the one document too, and still said on standard error.
            let json = await shaky(daemon, ["--json"] + add)
            let reply = try JSONDecoder().decode(
                ShakyAPI.PacksInterface.AddQuestionReply.self, from: Data(json.output.utf8))
            #expect(reply.warnings == [warning], "\(json)")
            #expect(json.error == "shaky: warning: \(warning)\n", "\(json)")

            for method in ["AddQuestion", "EditQuestion"] {
                daemon.answer("Packs.\(method)", with: .reply(["question": .object(stored)]))
            }
            for arguments in [add, edit] {
                let older = await shaky(daemon, arguments)
                #expect(older.status == 0, "\(arguments): \(older)")
                #expect(older.error.isEmpty, "\(arguments): \(older)")
            }
        }
    }

    @Test func watchPrintsOneLinePerEvent() async throws {
        try await FakeDaemon.run { daemon in
            let events = [
                Fixtures.event(.state) { $0.status = Fixtures.ready },
                Fixtures.event(.roundStarted) {
                    $0.number = 1
                    $0.total = 10
                    $0.question = "What big cat has stripes?"
                    $0.tiles = Fixtures.tiles
                    $0.points = 10
                },
                Fixtures.event(.tick) {
                    $0.remaining = 59
                    $0.phase = "indication"
                },
            ]
            daemon.answer("Game.Watch", with: .watch(events, end: true))
            // Watch goes on until interrupted: the feed's end is a daemon gone, and the first wait for it stops here.
            let watchUntilTheFeedEnds = { (arguments: [String]) async throws -> RecordingConsole in
                let console = RecordingConsole()
                let watch = try #require(
                    try Shaky.parseAsRoot(arguments + ["--socket", daemon.socketPath]) as? Shaky.Watch)
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                await #expect(throws: CancellationError.self) {
                    try await watch.follow(
                        LiveFeed(client: client, sleep: { _ in throw CancellationError() }), on: console)
                }
                await client.close()
                return console
            }
            // Text counts the countdown down here; JSON shows the daemon's own ticks.
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            for (arguments, countsDown) in [(["watch"], true), (["watch", "--json"], false)] {
                let watch = try #require(try Shaky.parseAsRoot(arguments) as? Shaky.Watch)
                #expect(watch.feed(client).countsDown == countsDown, "\(arguments)")
            }
            await client.close()
            let text = try await watchUntilTheFeedEnds(["watch"])
            #expect(
                text.output == """
                    Game: 10 questions · ready · Owls 12, Foxes 8
                    Question 1/10: What big cat has stripes?  [T] G I R E  (10 points)
                    [00:59] buzzers open  [T] G I R E  (10 points)

                    """)
            let json = try await watchUntilTheFeedEnds(["watch", "--json"])
            let lines = json.output.split(separator: "\n")
            #expect(lines.count == 3)
            let decoded = try lines.map {
                try JSONDecoder().decode(ShakyAPI.GameInterface.WatchReply.self, from: Data($0.utf8)).event
            }
            #expect(decoded == events)
        }
    }

    @Test("watch skips the events of a newer daemon that it does not know, and says so once per value")
    func watchSkipsUnknownEvents() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            let roundStarted = Fixtures.event(.roundStarted) {
                $0.number = 1
                $0.total = 10
                $0.question = "What big cat has stripes?"
                $0.tiles = Fixtures.tiles
                $0.points = 10
            }
            let confetti: VarlinkObject = ["event": ["kind": "confetti", "team": "Owls"]]
            daemon.answer(
                "Game.Watch",
                with: .events(
                    [
                        FakeDaemon.Answer.watchReply(Fixtures.event(.state) { $0.status = Fixtures.ready }),
                        confetti, FakeDaemon.Answer.watchReply(roundStarted), confetti,
                        ["event": ["kind": "buzzer", "buzzer": ["kind": "batteryLow", "team": "Owls"]]],
                        ["event": ["kind": "tick", "remaining": 59, "phase": "indication"]],
                    ], end: true))
            for arguments in [["watch"], ["watch", "--json"]] {
                let console = RecordingConsole()
                let watch = try #require(
                    try Shaky.parseAsRoot(arguments + ["--socket", daemon.socketPath]) as? Shaky.Watch)
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                // The feed's end is a daemon gone, and the first wait for it stops the watch here.
                await #expect(throws: CancellationError.self) {
                    try await watch.follow(
                        LiveFeed(client: client, sleep: { _ in throw CancellationError() }), on: console)
                }
                await client.close()
                if arguments == ["watch"] {
                    #expect(
                        console.output == """
                            Game: 10 questions · ready · Owls 12, Foxes 8
                            Question 1/10: What big cat has stripes?  [T] G I R E  (10 points)
                            [00:59] buzzers open  [T] G I R E  (10 points)

                            """)
                } else {
                    #expect(console.output.split(separator: "\n").count == 3)
                    #expect(!console.output.contains("confetti"))
                }
                let advice = "the daemon is newer; update shaky to the daemon's version (`shakyd --version` prints it)"
                #expect(
                    console.error == """
                        shaky: skipping events with event.kind “confetti”, which this shaky does not know: \(advice)
                        shaky: skipping events with event.buzzer.kind “batteryLow”, which this shaky does not know: \
                        \(advice)
                        Lost the daemon at \(daemon.socketPath): reconnecting…

                        """)
            }
        }
    }

    @Test("status from a newer daemon: an optional value it does not know is left out, a required one says update")
    func statusFromANewerDaemon() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            guard case .object(var state) = try JSONValue(encoding: Fixtures.roundOver) else { return }
            state["roundEnd"] = "abandoned"
            daemon.answer("Game.Status", with: .reply(["status": .object(state)]))
            let shown = await shaky(daemon, ["status"])
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.output == TextRenderer.status(Fixtures.roundOver, style: .plain) + "\n")
            state["phase"] = "intermission"
            daemon.answer("Game.Status", with: .reply(["status": .object(state)]))
            let refused = await shaky(daemon, ["status"])
            #expect(refused.status == 1)
            #expect(
                refused.error
                    == "shaky: the daemon is newer than this shaky: its reply to io.shakywords.Game.Status has "
                    + "status.phase “intermission”, which this shaky does not know; update shaky to the daemon's "
                    + "version (`shakyd --version` prints it)\n")
        }
    }

    @Test func aRefusedWatchExitsWithOne() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Watch", with: .error("NoGame", [:]))
            let outcome = await shaky(daemon, ["watch"])
            #expect(outcome.status == 1)
            #expect(outcome.error.hasPrefix("shaky: there is no game; start one with `shaky new"))
        }
    }

    @Test func anUnreachableDaemonExitsWithThree() async {
        let path = "/tmp/shaky-cli-none-\(UUID().uuidString.prefix(8))/shaky.sock"
        let outcome = await runInProcess(["status", "--socket", path])
        #expect(outcome.status == 3)
        #expect(outcome.error.contains(path))
        #expect(outcome.error.contains("shakyd"))
    }

    @Test func usageErrorsExitWithTwoAndHelpWithZero() async {
        let bad = await runInProcess(["score", "Owls", "lots"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("“lots” is not a change of score"))
        #expect(bad.error.contains("Usage: shaky score"))
        let help = await runInProcess(["pack", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: shaky pack <subcommand>"))
        let bare = await runInProcess([])
        #expect(bare.status == 0)
        #expect(bare.output.contains("HOSTING A GAME SUBCOMMANDS"))
    }

    @Test func completionScriptsAreGenerated() async {
        for shell in ["bash", "zsh", "fish"] {
            let outcome = await runInProcess(["--generate-completion-script", shell])
            #expect(outcome.status == 0)
            #expect(outcome.output.contains("shaky"))
            #expect(outcome.output.contains("leaderboard"))
        }
    }

    /// Refused because a game is in play, each command that starts a game names its own `--replace`: the host can
    /// type the suggestion as it is.
    @Test(arguments: [
        (["new", "--team", "Owls", "--team", "Foxes"], "shaky new --replace …"),
        (["play", "--team", "Owls", "--team", "Foxes"], "shaky play --replace --team …"),
        (["demo"], "shaky demo --replace"),
    ])
    func aGameInPlayIsReplacedWithTheFlagOfTheCommandTyped(arguments: [String], suggestion: String) async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.New", with: .error("GameInProgress", [:]))
            let demoPack = ShakyAPI.Pack(
                name: Shaky.Demo.packName, builtin: false, questions: 3, easy: 3, medium: 0, hard: 0)
            daemon.answer("Packs.List", with: .reply(encoding: ShakyAPI.PacksInterface.ListReply(packs: [demoPack])))
            let outcome = await shaky(daemon, arguments)
            #expect(outcome.status == 1, "\(outcome)")
            #expect(
                outcome.error
                    == "shaky: a game is in play; end it with `shaky end`, or start anew with `\(suggestion)`\n")
        }
    }
}

import Foundation
import ShakyProtocol
import Testing
import Varlink

@testable import ShakyCLI

/// `shaky play` run from a script against a fake daemon.
@Suite struct PlaySessionTests {
    static let watchEvents = [
        Fixtures.event(.state) { $0.status = Fixtures.ready },
        Fixtures.event(.roundStarted) {
            $0.number = 1
            $0.total = 10
            $0.question = "What big cat has stripes?"
            $0.tiles = Fixtures.tiles
            $0.points = 10
        },
    ]

    func script(_ daemon: FakeDaemon) {
        daemon.answer(
            "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
        daemon.answer("Game.Watch", with: .watch(Self.watchEvents, end: false))
        for method in ["Next", "Hint", "Buzz", "Pause", "Skip"] {
            daemon.answer(
                "Game.\(method)", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering))
            )
        }
        daemon.answer(
            "Game.Answer",
            with: .reply(encoding: ShakyAPI.GameInterface.AnswerReply(correct: true, status: Fixtures.roundOver)))
        daemon.answer(
            "Game.Scoreboard",
            with: .reply(encoding: ShakyAPI.GameInterface.ScoreboardReply(standings: Fixtures.standings)))
    }

    @Test func scriptedCommandsBecomeCalls() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let commands = "n\nh\n2\nb Owls\na tiger\n\nx\np\ns\nt\nq\nn\n"
            try await PlaySession(client: client, console: console).run(commands: InputLines.lines(of: commands))
            await client.close()
            let calls = daemon.callsWithoutStatus
            // The session counts the countdown down itself: the daemon need not tick each second for it.
            #expect(calls.contains(.init("Game.Watch", ["ticks": false])))
            #expect(
                calls.filter { $0.method != "io.shakywords.Game.Watch" } == [
                    .init("Game.Next"), .init("Game.Hint"), .init("Game.Buzz", ["team": "Foxes"]),
                    .init("Game.Buzz", ["team": "Owls"]), .init("Game.Answer", ["team": "Owls", "answer": "tiger"]),
                    .init("Game.Pause"), .init("Game.Skip"), .init("Game.Scoreboard"),
                ])
            #expect(console.output.contains("Teams: 1 Owls · 2 Foxes"))
            #expect(console.output.contains("Question 1/10: What big cat has stripes?  [T] G I R E  (10 points)"))
            #expect(console.output.contains(TextRenderer.scoreboard(Fixtures.standings)))
            #expect(console.error == "! unknown command “x”; type ? for the commands\n")
        }
    }

    @Test("A game started elsewhere: play says the new teams' numbers after the game's line, once")
    func aNewGameFromElsewhereSaysItsTeamsNumbers() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            var other = Fixtures.ready
            other.teams = ["Red", "Green", "Blue"].map { ShakyAPI.TeamScore(name: $0, score: 0) }
            let events =
                Self.watchEvents + [
                    Fixtures.event(.state) { $0.status = other }, Fixtures.event(.state) { $0.status = other },
                ]
            daemon.answer("Game.Watch", with: .watch(events, end: false))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console).run(commands: InputLines.lines(of: "w 1\nq\n"))
            await client.close()
            let lines = console.output.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0 == "Teams: 1 Owls · 2 Foxes" }.count == 1, "\(lines)")
            #expect(lines.filter { $0 == "Teams: 1 Red · 2 Green · 3 Blue" }.count == 1, "\(lines)")
            let said = try #require(lines.firstIndex(of: "Teams: 1 Red · 2 Green · 3 Blue"))
            #expect(lines[said - 1].hasPrefix("Game:"), "\(lines)")
        }
    }

    @Test("With --json every line on standard output is a JSON object; what is said for people goes to standard error")
    func jsonOutputIsJSONLines() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console, json: true).run(
                commands: InputLines.lines(of: "w 1\nt\nst\nq\n"))
            await client.close()
            let lines = console.output.split(separator: "\n").map(String.init)
            #expect(lines.count >= 4, "the events, the scoreboard and the status: \(lines)")
            for line in lines {
                #expect((try? JSONValue(parsing: line))?.objectValue != nil, "not a JSON object: \(line)")
            }
            #expect(lines.contains { $0.hasPrefix(#"{"standings":"#) })
            #expect(lines.contains { $0.hasPrefix(#"{"status":"#) })
            #expect(console.error.contains("Teams: 1 Owls · 2 Foxes"))
        }
    }

    @Test("A number is a team's name when a team is called so, else the team it numbers")
    func aTeamNamedByANumberIsThatTeam() throws {
        let teams = ["Café", "Cafe", "2", "1", "🦉 Owls"].map { ShakyAPI.TeamScore(name: $0, score: 0) }
        #expect(try PlaySession.team(typed: "2", in: teams) == "2")
        #expect(try PlaySession.team(typed: "1", in: teams) == "1")
        #expect(try PlaySession.team(typed: "5", in: teams) == "🦉 Owls")
        #expect(try PlaySession.team(typed: "cafe", in: teams) == "Cafe")
        #expect(try PlaySession.team(typed: "Zebras", in: teams) == "Zebras", "left to the daemon, which names them")
        #expect(throws: PlayCommandError.self) { try PlaySession.team(typed: "6", in: teams) }
    }

    @Test func refusalsArePrintedAndTheSessionGoesOn() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            daemon.answer(
                "Game.Buzz", with: .error("Refused", ["reason": "alreadyBuzzed", "message": "Owls already buzzed"]))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console).run(
                commands: InputLines.lines(of: "b Owls\n7\n0\nb \(Int.min)\nu \(Int.min)\nn\n"))
            await client.close()
            let noTeam = { (number: Int) in "! there is no team \(number); the teams are 1 to 2\n" }
            #expect(
                console.error == "! Owls already buzzed\n" + noTeam(7) + "! there is no team 0\n" + noTeam(.min)
                    + noTeam(.min))
            #expect(
                daemon.callsWithoutStatus.filter { $0.method != "io.shakywords.Game.Watch" }.map(\.method).last
                    == "io.shakywords.Game.Next")
        }
    }

    @Test func withoutAGameThePlayStopsWithTheDaemonsMessage() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Status", with: .error("NoGame", [:]))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            await #expect(throws: ShakyClientError.self) {
                try await PlaySession(client: client, console: RecordingConsole()).run(
                    commands: InputLines.lines(of: "n\n"))
            }
            await client.close()
            #expect(daemon.calls == [.init("Game.Status")])
        }
    }

    @Test func answeringNeedsATeamUp() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console).run(commands: InputLines.lines(of: "a tiger\n"))
            await client.close()
            #expect(console.error == "! nobody is up to answer; open a question (n) and a team buzzes first (b TEAM)\n")
            #expect(!daemon.calls.map(\.method).contains("io.shakywords.Game.Answer"))
        }
    }

    @Test("A command whose connection closed before the reply says it may have been done and to check first")
    func aCommandCutOffByAStopSaysToCheckBeforeTypingItAgain() {
        let message = PlaySession.whileAway(.connectionLost(path: "/run/shaky/shaky.sock"))
        #expect(message.contains("may or may not have been done"), "\(message)")
        #expect(message.contains("check with st before typing it again"), "\(message)")
    }

    @Test("An answer while buzzers are open says a team buzzes first, true in both buzzer modes")
    func answeringWhileBuzzersAreOpenSaysBuzzFirst() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            var open = Fixtures.answering
            open.phase = .indication
            open.teamUp = nil
            daemon.answer("Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: open)))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console).run(commands: InputLines.lines(of: "a tiger\n"))
            await client.close()
            #expect(
                console.error
                    == "! nobody is up to answer yet: a team buzzes first (b TEAM); in a buzz-order game teams answer "
                    + "once every team has buzzed or the time is up\n")
            #expect(!daemon.calls.map(\.method).contains("io.shakywords.Game.Answer"))
        }
    }
}

extension PlaySessionTests {
    @Test("The events of a newer daemon that play does not know are skipped, and said once per value")
    func unknownEventsAreSkipped() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            script(daemon)
            let confetti: VarlinkObject = ["event": ["kind": "confetti", "team": "Owls"]]
            daemon.answer(
                "Game.Watch",
                with: .events(
                    [FakeDaemon.Answer.watchReply(Self.watchEvents[0]), confetti]
                        + [FakeDaemon.Answer.watchReply(Self.watchEvents[1]), confetti], end: false))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            // The question comes after the first skipped event, so once it is shown that one has been said.
            try await PlaySession(client: client, console: console).run(
                commands: LiveFeedTests.quitting(once: console, shows: "What big cat has stripes?"))
            await client.close()
            #expect(console.output.contains("Question 1/10: What big cat has stripes?  [T] G I R E  (10 points)"))
            #expect(
                console.error
                    == "! skipping events with event.kind “confetti”, which this shaky does not know: the daemon is "
                    + "newer; update shaky to the daemon's version (`shakyd --version` prints it)\n")
        }
    }

    @Test("A watch that ends with an error is said at once, and play ends with it")
    func aWatchThatFailsIsSaidAtOnce() async throws {
        try await FakeDaemon.run(checksReplies: false) { daemon in
            script(daemon)
            var newGame = FakeDaemon.Answer.watchReply(Self.watchEvents[0])
            newGame["event"] = ["kind": "state", "status": ["phase": "intermission"]]
            daemon.answer(
                "Game.Watch",
                with: .events([FakeDaemon.Answer.watchReply(Self.watchEvents[0]), newGame], end: false))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let error = await #expect(throws: ShakyClientError.self) {
                try await PlaySession(client: client, console: console).run(
                    commands: LiveFeedTests.quitting(once: console, shows: "the game is no longer shown"))
            }
            await client.close()
            #expect(
                error
                    == .newerDaemon(
                        .init(method: "io.shakywords.Game.Watch", field: "event.status.phase", value: "intermission")))
            #expect(
                console.error.hasPrefix(
                    "! the game is no longer shown: the daemon is newer than this shaky: its reply to "
                        + "io.shakywords.Game.Watch has event.status.phase “intermission”"))
        }
    }

    @Test func joinAsksTheDaemonAndAJoiningUnderWayIsShownAtTheStart() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            daemon.answer(
                "Buzzers.List",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.ListReply(devices: [], assignments: [], joining: ["Foxes"])))
            daemon.answer(
                "Buzzers.Join", with: .reply(encoding: ShakyAPI.BuzzersInterface.JoinReply(teams: ["Owls", "Foxes"])))
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console, screen: PlayScreen(rows: 24, columns: 80)).run(
                commands: InputLines.lines(of: "j\nq\n"))
            await client.close()
            #expect(console.output.contains("Foxes: press your button"))
            #expect(daemon.calls.contains(.init("Buzzers.Join")))
        }
    }
}

extension PlaySessionTests {
    @Test func theCountdownLineIsClearedWhenTheRoundIsOver() async throws {
        try await FakeDaemon.run { daemon in
            script(daemon)
            let tick = Fixtures.event(.tick) {
                $0.phase = "answering(Owls)"
                $0.remaining = 47
            }
            let events =
                Self.watchEvents + [
                    tick,
                    Fixtures.event(.judged) {
                        $0.team = "Owls"
                        $0.given = "tiger"
                        $0.correct = true
                        $0.awarded = 10
                    },
                    Fixtures.event(.answerRevealed) {
                        $0.answer = "Tiger"
                        $0.winner = "Owls"
                    },
                    Fixtures.event(.phaseChanged) { $0.phase = "roundOver" },
                ]
            daemon.answer("Game.Watch", with: .watch(events, end: false))
            let console = RecordingConsole()
            let screen = PlayScreen(rows: 24, columns: 80)
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            try await PlaySession(client: client, console: console, screen: screen).run(
                commands: InputLines.lines(of: "q\n"))
            await client.close()
            let tickShown = try #require(console.output.range(of: "[00:47] Owls to answer"))
            let cleared = try #require(console.output.range(of: screen.countdown(""), options: .backwards))
            #expect(cleared.lowerBound > tickShown.lowerBound)
        }
    }
}

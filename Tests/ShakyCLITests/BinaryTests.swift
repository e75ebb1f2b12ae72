import Foundation
import ShakyProtocol
import Testing

/// The built `shaky` executable, run as a separate process against a fake daemon.
@Suite struct BinaryTests {
    @Test func statusPrintsTheGameAndExitsWithZero() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            let outcome = try await runBinary(["status", "--socket", daemon.socketPath])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.contains("Question 3/10 · Owls to answer · 00:18 left"))
            #expect(outcome.output.contains("[T] G I R E"))
            #expect(outcome.error.isEmpty)
        }
    }

    @Test func theSocketComesFromShakySocket() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Scoreboard",
                with: .reply(encoding: ShakyAPI.GameInterface.ScoreboardReply(standings: Fixtures.standings)))
            let outcome = try await runBinary(
                ["scoreboard", "--json"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(outcome.status == 0, "\(outcome)")
            let reply = try JSONDecoder().decode(
                ShakyAPI.GameInterface.ScoreboardReply.self, from: Data(outcome.output.utf8))
            #expect(reply.standings == Fixtures.standings)
        }
    }

    @Test func aNegativeScoreReachesTheDaemon() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.AdjustScore",
                with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            let outcome = try await runBinary([
                "score", "Owls", "-5", "--reason", "rude", "--socket", daemon.socketPath,
            ])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(daemon.calls == [.init("Game.AdjustScore", ["team": "Owls", "delta": -5, "reason": "rude"])])
            let owls = try #require(Fixtures.answering.teams.first { $0.name == "Owls" })
            #expect(outcome.output.hasPrefix("Score: Owls -5 (rude) → \(owls.score)\n\n"), "what changed, first")
        }
    }

    @Test func aRefusalExitsWithOneAndTheDaemonsMessage() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Next", with: .error("Refused", ["reason": "gameOver", "message": "the game is over"]))
            let outcome = try await runBinary(["next", "--socket", daemon.socketPath])
            #expect(outcome.status == 1, "\(outcome)")
            #expect(outcome.error == "shaky: the game is over\n")
            #expect(outcome.output.isEmpty)
        }
    }

    @Test func nothingListeningExitsWithThreeAndNamesTheSocket() async throws {
        let path = "/tmp/shaky-cli-none-\(UUID().uuidString.prefix(8))/shaky.sock"
        let outcome = try await runBinary(["status"], environment: ["SHAKY_SOCKET": path])
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.error.contains(path))
        #expect(outcome.error.contains("`shakyd`"))
        #expect(outcome.error.contains("systemctl start shakyd.socket"))
    }

    @Test(arguments: [
        ["score", "Owls"], ["new", "--team", "Owls"], ["settings", "--volume", "2"], ["dance"],
        ["new", "--team", "A", "--team", "B", "--difficulty", "nightmare"],
    ])
    func badUsageExitsWithTwo(arguments: [String]) async throws {
        let outcome = try await runBinary(arguments + ["--socket", "/tmp/shaky-cli-unused.sock"])
        #expect(outcome.status == 2, "\(outcome)")
        // Headed by the program's name as every other failure is, not the parser's "Error:".
        #expect(outcome.error.hasPrefix("shaky: "), "\(outcome)")
        #expect(!outcome.error.contains("Error:"), "\(outcome)")
        #expect(outcome.output.isEmpty)
    }

    @Test(arguments: [
        (["settings", "--volume", "-0.5"], "shaky: --volume must be between 0 and 1 (e.g. 0.8), not -0.5."),
        (["history", "--limit", "-1"], "shaky: --limit must be at least 1, not -1."),
        (["history", "--limit"], "shaky: Missing value for '--limit <count>'"),
        (["settings", "--volume", "-x"], "shaky: Missing value for '--volume <0-1>'"),
    ])
    func aNegativeNumberIsTheOptionsValue(arguments: [String], message: String) async throws {
        let outcome = try await runBinary(arguments + ["--socket", "/tmp/shaky-cli-unused.sock"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.hasPrefix(message), "\(outcome)")
    }

    @Test func helpAndCompletionsExitWithZero() async throws {
        let help = try await runBinary(["score", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: shaky score <team> <delta>"))
        let completion = try await runBinary(["--generate-completion-script", "bash"])
        #expect(completion.status == 0)
        #expect(completion.output.contains("_shaky"))
    }

    @Test func playReadsPipedCommands() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.New", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer("Game.Watch", with: .watch(PlaySessionTests.watchEvents, end: false))
            daemon.answer(
                "Game.Next", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer(
                "Game.Buzz", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer(
                "Game.Answer",
                with: .reply(encoding: ShakyAPI.GameInterface.AnswerReply(correct: true, status: Fixtures.roundOver)))
            let outcome = try await runBinary(
                ["play", "--team", "Owls", "--team", "Foxes", "--seed", "1", "--socket", daemon.socketPath],
                input: "n\n1\na tiger\n")
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.contains("Question 1/10: What big cat has stripes?  [T] G I R E  (10 points)"))
            #expect(
                daemon.callsWithoutStatus.filter { $0.method != "io.shakywords.Game.Watch" } == [
                    .init("Game.New", ["teams": ["Owls", "Foxes"], "seed": 1]), .init("Game.Next"),
                    .init("Game.Buzz", ["team": "Owls"]), .init("Game.Answer", ["team": "Owls", "answer": "tiger"]),
                ])
        }
    }

    @Test func playReadsAScriptFile() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer("Game.Watch", with: .watch(PlaySessionTests.watchEvents, end: false))
            daemon.answer(
                "Game.Hint", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            let file = "/tmp/shaky-cli-script-\(UUID().uuidString.prefix(8)).txt"
            try "# the host's script\nh\nbogus\nq\nh\n".write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let outcome = try await runBinary(["play", "--script", file, "--socket", daemon.socketPath])
            // The help promises exit status 1 when the game or a file refused: a script's failed line is one.
            #expect(outcome.status == 1, "\(outcome)")
            #expect(
                outcome.error == "! unknown command “bogus”; type ? for the commands\n"
                    + "shaky: 1 command failed: line 3 of --script \(file)\n")
            #expect(
                daemon.callsWithoutStatus.filter { $0.method != "io.shakywords.Game.Watch" } == [.init("Game.Hint")])
        }
    }

    /// A script saved with Windows (CRLF) or old Mac (CR) line ends, from a file or a pipe, runs line by line.
    @Test(arguments: ["\r\n", "\r", "\n"], [true, false])
    func playReadsEveryKindOfLineEnd(lineEnd: String, fromFile: Bool) async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer("Game.Watch", with: .watch(PlaySessionTests.watchEvents, end: false))
            for method in ["Game.Next", "Game.Buzz"] {
                daemon.answer(
                    method, with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            }
            let script = ["n", "b 1", "q", "h"].joined(separator: lineEnd) + lineEnd
            let file = "/tmp/shaky-cli-script-\(UUID().uuidString.prefix(8)).txt"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let outcome =
                fromFile
                ? try await runBinary(["play", "--script", file, "--socket", daemon.socketPath])
                : try await runBinary(["play", "--socket", daemon.socketPath], input: script)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.error.isEmpty, "\(outcome)")
            #expect(
                daemon.callsWithoutStatus.filter { $0.method != "io.shakywords.Game.Watch" } == [
                    .init("Game.Next"), .init("Game.Buzz", ["team": "Owls"]),
                ])
        }
    }

    @Test func pipedCommandsThatFailMakeTheExitStatusOne() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            daemon.answer("Game.Watch", with: .watch(PlaySessionTests.watchEvents, end: false))
            daemon.answer(
                "Game.Buzz", with: .error("Refused", ["reason": "alreadyBuzzed", "message": "Owls already buzzed"]))
            daemon.answer(
                "Game.Hint", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
            let outcome = try await runBinary(["play", "--socket", daemon.socketPath], input: "b 1\nh\nx\nh\n")
            #expect(outcome.status == 1, "\(outcome)")
            #expect(
                outcome.error.hasSuffix("shaky: 2 commands failed: lines 1 and 3 of standard input\n"), "\(outcome)")
            #expect(daemon.callsWithoutStatus.filter { $0.method == "io.shakywords.Game.Hint" }.count == 2)
        }
    }
}

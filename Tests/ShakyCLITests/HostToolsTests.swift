import Foundation
import ShakyTesting
import Testing

/// The rough edges a new host met, run end to end: the built `shaky` against a real `shakyd`.
@Suite("Host tools against a real shakyd", .serialized)
struct HostToolsTests {
    /// Starts a daemon with no sensor and no sound, runs `body`, and stops the daemon.
    private func withDaemon(_ body: (DaemonProcess) async throws -> Void) async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "none", "--sound-device", "none"])
        try await daemon.start()
        do {
            try await body(daemon)
        } catch {
            _ = await daemon.terminate()
            await daemon.removeFiles()
            throw error
        }
        _ = await daemon.terminate()
        await daemon.removeFiles()
    }

    private func shaky(
        _ arguments: [String], on daemon: DaemonProcess, input: String = ""
    ) async throws
        -> ShakyOutcome
    {
        try await runBinary(arguments, input: input, environment: ["SHAKY_SOCKET": daemon.socketPath])
    }

    @Test func aCSVFileNamesThePackAfterItself() async throws {
        try await withDaemon { daemon in
            let file = daemon.folder.appendingPathComponent("My Quiz.csv")
            try Data("question,answer,difficulty,alternates\nCapital of Vietnam?,Hà Nội,,\n".utf8).write(to: file)
            let imported = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output.contains("My Quiz"), "\(imported)")
            let search = try await shaky(["pack", "search", "capital", "vietnam"], on: daemon)
            #expect(search.output.contains("Hà Nội"), "\(search)")
            let hanoi = try await shaky(["pack", "search", "hanoi"], on: daemon)
            #expect(hanoi.output.contains("Capital of Vietnam?"), "\(hanoi)")
        }
    }

    @Test func importWarningsReachTheHostAndJSONOutputStaysOneDocument() async throws {
        try await withDaemon { daemon in
            let file = daemon.folder.appendingPathComponent("Repeats.csv")
            let rows =
                "question,answer,difficulty,alternates,source\nTallest animal?,Giraffe,,,zoo\nTallest animal?,Giraffe,,,\n"
            try Data(rows.utf8).write(to: file)
            let imported = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output.hasPrefix("Imported Repeats"), "\(imported)")
            #expect(imported.error.contains("warning: \(file.path): line 3 repeats"), "\(imported)")
            #expect(imported.error.contains("source"), "the ignored column is named: \(imported)")

            let json = try await shaky(["--json", "pack", "import", file.path, "--name", "Repeats 2"], on: daemon)
            #expect(json.status == 0, "\(json)")
            let reply = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect((reply?["warnings"] as? [String])?.count == 2, "\(json)")
        }
    }

    @Test func packEditChangesOnlyTheFieldsGiven() async throws {
        try await withDaemon { daemon in
            _ = try await shaky(["pack", "create", "Mine"], on: daemon)
            let added = try await shaky(
                [
                    "pack", "add", "Mine", "--question", "Red planet?", "--answer", "Mars", "--alternate", "Ares",
                    "--difficulty", "easy", "--json",
                ], on: daemon)
            #expect(added.status == 0, "\(added)")
            let id = try #require(
                (try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
                    .flatMap { $0["question"] as? [String: Any] }?["id"] as? Int)
            let edited = try await shaky(["pack", "edit", "\(id)", "--difficulty", "hard", "--json"], on: daemon)
            #expect(edited.status == 0, "\(edited)")
            #expect(edited.output.contains("\"hard\""), "\(edited)")
            #expect(edited.output.contains("\"Ares\""), "the alternates stay: \(edited)")
            #expect(edited.output.contains("\"Red planet?\""), "\(edited)")
            let missing = try await shaky(["pack", "edit", "9999", "--difficulty", "hard"], on: daemon)
            #expect(missing.status == 1)
            #expect(missing.error.contains("no question 9999"), "\(missing)")
        }
    }

    @Test func exportWithABOMImportsBackAndCompletionsOfferPackNames() async throws {
        try await withDaemon { daemon in
            let file = daemon.folder.appendingPathComponent("export.csv")
            let export = try await shaky(
                ["pack", "export", "Places with Accents", "-o", file.path, "--bom"], on: daemon)
            #expect(export.status == 0, "\(export)")
            let bytes = try Data(contentsOf: file)
            #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
            let back = try await shaky(["pack", "import", file.path, "--name", "Accents Again"], on: daemon)
            #expect(back.status == 0, "\(back)")
            let names = try await shaky(["pack", "list", "--names"], on: daemon)
            #expect(names.output.split(separator: "\n").contains("Accents Again"), "\(names)")
            _ = try await shaky(["new", "--team", "Owls", "--team", "Foxes"], on: daemon)
            let teams = try await shaky(["status", "--team-names"], on: daemon)
            #expect(teams.output == "Owls\nFoxes\n", "\(teams)")
            let script = try await runBinary(["--generate-completion-script", "bash"])
            #expect(script.output.contains("shaky pack list --names"))
            #expect(script.output.contains("shaky status --team-names"))
        }
    }

    @Test func aFileTooLargeForOneCallIsRefusedWithATrueMessage() async throws {
        try await withDaemon { daemon in
            let file = daemon.folder.appendingPathComponent("Huge.csv")
            var text = "question,answer,difficulty,alternates\n"
            for index in 0..<25_000 { text += "Question number \(index) of a very large pack?,Answer,easy,\n" }
            try Data(text.utf8).write(to: file)
            let run = try await shaky(["pack", "import", file.path], on: daemon)
            #expect(run.status == 1, "\(run)")
            #expect(run.error.contains("too large to import in one go"), "\(run)")
            #expect(!run.error.contains("daemon running"), "\(run)")
            let status = try await shaky(["pack", "list"], on: daemon)
            #expect(status.status == 0, "the daemon is fine: \(status)")
        }
    }

    @Test func globalOptionsGoBeforeTheSubcommand() async throws {
        try await withDaemon { daemon in
            let status = try await runBinary(["--socket", daemon.socketPath, "--json", "pack", "list"])
            #expect(status.status == 0, "\(status)")
            #expect(status.output.hasPrefix("{"), "\(status)")
            let equals = try await runBinary(["--socket=\(daemon.socketPath)", "status"])
            #expect(equals.error.contains("there is no game"), "\(equals)")
        }
    }

    @Test func aReaderThatGoesAwayEndsTheProgramQuietly() async throws {
        try await withDaemon { daemon in
            let script = """
                "$0" pack list | true
                echo "list: ${PIPESTATUS[0]}"
                "$0" pack list | head -c 1 > /dev/null
                echo "head: ${PIPESTATUS[0]}"
                """
            let run = try ChildProcess(
                "/bin/bash", ["-c", script, try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            let exit = try await run.waitForExit(within: .seconds(30))
            #expect(exit.status == 0)
            #expect(run.standardOutput.contains("list: 0"), "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardOutput.contains("head: 0"), "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.isEmpty, "no backtrace: \(run.standardError)")
        }
    }

    @Test func bothProgramsPrintTheirVersion() async throws {
        let client = try await runBinary(["--version"])
        #expect(client.status == 0)
        #expect(client.output == "0.1.0\n")
        let daemon = try ChildProcess(try BuiltProduct.path("shakyd"), ["--version"])
        #expect(try await daemon.waitForExit(within: .seconds(30)).status == 0)
        #expect(daemon.standardOutput == "0.1.0\n")
    }

    @Test func aDaemonStartedFromPathFindsItsDataInAnyFolder() async throws {
        // `cd ~; shakyd`: argv[0] is the bare name and the working folder holds nothing of ours; the
        // built-in packs must still be found from the real executable.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let script = """
            cd / || exit 9
            (exec -a shakyd "$0" --input none --sound-device none --socket "$1/s.sock" --state-dir "$1/state" \
                --config "$1/none.conf" 2> "$1/log") &
            daemon=$!
            for _ in $(seq 200); do [ -S "$1/s.sock" ] && break; sleep 0.1; done
            SHAKY_SOCKET="$1/s.sock" "$2" pack list
            kill $daemon; wait $daemon
            """
        try Data("# empty\n".utf8).write(to: URL(fileURLWithPath: folder.appending("none.conf")))
        let run = try ChildProcess(
            "/bin/bash", ["-c", script, try BuiltProduct.path("shakyd"), folder.path, try BuiltProduct.path("shaky")])
        _ = try await run.waitForExit(within: .seconds(60))
        let log = (try? String(contentsOfFile: folder.appending("log"), encoding: .utf8)) ?? ""
        #expect(run.standardOutput.contains("Animals"), "\(run.standardOutput)\(run.standardError)\(log)")
    }

    @Test func aBadValueInTheConfigurationFileNamesTheFileAndLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        for (text, line, word) in [
            ("input: none\nsensitivity: extreme\n", 2, "sensitivity"), ("# input\ninput: bogus\n", 2, "input"),
        ] {
            let config = URL(fileURLWithPath: folder.appending("shakyd.conf"))
            try Data(text.utf8).write(to: config)
            let run = try ChildProcess(
                try BuiltProduct.path("shakyd"),
                ["--config", config.path, "--socket", folder.appending("s.sock")])
            let exit = try await run.waitForExit(within: .seconds(30))
            #expect(exit.status == 3, "a refused configuration file exits with 3")
            #expect(run.standardError.contains("\(config.path):\(line): \(word)"), "\(run.standardError)")
        }
    }
}

/// `shaky play` in a real terminal (tmux) against a real daemon.
@Suite("shaky play at a terminal", .serialized)
struct PlayTerminalTests {
    /// Runs `tmux ARGUMENTS` on the private server `socket` and returns its standard output.
    @discardableResult
    private func tmux(_ socket: String, _ arguments: [String]) async throws -> String {
        let run = try ChildProcess("/usr/bin/tmux", ["-S", socket] + arguments)
        _ = try await run.waitForExit(within: .seconds(10))
        return run.standardOutput
    }

    /// Polls the pane until `condition` holds for its text, for at most `limit`.
    private func pane(
        _ socket: String, until condition: (String) -> Bool, within limit: Duration = .seconds(15)
    ) async throws -> String {
        let deadline = ContinuousClock.now + limit
        var text = ""
        while ContinuousClock.now < deadline {
            text = try await tmux(socket, ["capture-pane", "-p", "-t", "play"])
            if condition(text) { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
        return text
    }

    @Test func theCountdownNeverErasesWhatTheHostTypesAndEndingAsksFirst() async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "none", "--sound-device", "none"])
        try await daemon.start()
        let socket = daemon.folder.appendingPathComponent("tmux.sock").path
        // The tmux server runs in the foreground as our child, so no forked server holds our pipes.
        let server = try ChildProcess("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null", "-D"])
        defer {
            server.send(SIGTERM)
            Task {
                _ = await daemon.terminate()
                await daemon.removeFiles()
            }
        }
        try await server.wait(for: "the tmux server's socket", within: .seconds(10)) {
            FileManager.default.fileExists(atPath: socket)
        }
        let new = try await runBinary(
            ["new", "--team", "Owls", "--team", "Foxes", "--questions", "2"],
            environment: ["SHAKY_SOCKET": daemon.socketPath])
        #expect(new.status == 0, "\(new)")
        try await tmux(
            socket,
            [
                "new-session", "-d", "-s", "play", "-x", "36", "-y", "12", "-e", "SHAKY_SOCKET=\(daemon.socketPath)",
                try BuiltProduct.path("shaky"), "play",
            ])
        _ = try await pane(socket) { $0.contains("Teams: 1 Owls") }
        try await tmux(socket, ["send-keys", "-t", "play", "n", "Enter"])
        try await tmux(socket, ["send-keys", "-t", "play", "a tig"])
        let first = try await pane(socket) { $0.contains("[00:5") && $0.contains("> a tig") }
        let countdown = first.split(separator: "\n").first { $0.hasPrefix("[00:") }.map(String.init) ?? ""
        // Wait for the countdown to move on, then the typed text must still be there, on one line.
        let later = try await pane(socket) { text in
            text.split(separator: "\n").contains { $0.hasPrefix("[00:") && String($0) != countdown }
        }
        let lines = later.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("> a tig"), "\(later)")
        #expect(lines.allSatisfy { $0.count <= 36 })
        try await tmux(socket, ["send-keys", "-t", "play", "C-u", "e", "Enter"])
        _ = try await pane(socket) { $0.contains("End the game now") }
        try await tmux(socket, ["send-keys", "-t", "play", "no", "Enter"])
        let goesOn = try await pane(socket) { $0.contains("The game goes on.") }
        #expect(goesOn.contains("The game goes on."), "\(goesOn)")
        let status = try await runBinary(["status"], environment: ["SHAKY_SOCKET": daemon.socketPath])
        #expect(status.output.contains("Question 1/2"), "\(status)")
        try await tmux(socket, ["send-keys", "-t", "play", "e", "Enter", "y", "Enter"])
        let over = try await pane(socket) { $0.contains("Game over") }
        #expect(over.contains("Game over"), "\(over)")
    }
}

/// The host's new rules, end to end: classic buzzing, overrule, reasons and the history.
@Suite("Host rules against a real shakyd", .serialized)
struct HostRulesTests {
    @Test func classicBuzzingOverruleReasonsAndHistory() async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "none", "--sound-device", "none"])
        try await daemon.start()
        defer {
            Task {
                _ = await daemon.terminate()
                await daemon.removeFiles()
            }
        }
        func shaky(_ arguments: [String]) async throws -> ShakyOutcome {
            try await runBinary(arguments, environment: ["SHAKY_SOCKET": daemon.socketPath])
        }
        let new = try await shaky([
            "new", "--team", "Owls", "--team", "Foxes", "--questions", "1", "--buzzer-mode", "classic", "--seed", "3",
        ])
        #expect(new.status == 0, "\(new)")
        _ = try await shaky(["next"])
        let buzz = try await shaky(["buzz", "Owls"])
        #expect(buzz.output.contains("Owls to answer"), "the first buzzer answers at once: \(buzz)")
        let answer = try await shaky(["answer", "Owls", "surely", "not", "this"])
        #expect(answer.status == 0, "\(answer)")
        let overruled = try await shaky(["judge", "overrule"])
        #expect(overruled.status == 0, "\(overruled)")
        let score = try await shaky(["score", "Foxes", "+3", "--reason", "best costumes"])
        #expect(score.status == 0, "\(score)")
        let board = try await shaky(["scoreboard"])
        #expect(board.output.contains("Foxes +3: best costumes"), "\(board)")
        #expect(board.output.contains("Owls") && board.output.contains("10"), "\(board)")
        let nothing = try await shaky(["judge", "undo-buzz", "Foxes"])
        #expect(nothing.status == 1, "\(nothing)")
        _ = try await shaky(["end"])
        let history = try await shaky(["history"])
        #expect(history.output.contains("adjusted: Foxes +3: best costumes"), "\(history)")
        #expect(!history.output.contains("UTC"), "times are local: \(history)")
        let id = try #require(
            history.output.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
        let deleted = try await shaky(["history", "delete", id])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try await shaky(["history"]).output.contains("No finished games yet."))
        let missing = try await shaky(["history", "delete", id])
        #expect(missing.status == 1, "\(missing)")
    }
}

/// `shaky settings` says where sound really goes.
@Suite("Sound output state against a real shakyd", .serialized)
struct SoundOutputStateTests {
    @Test func settingsReportSilenceAndPointAtAplay() async throws {
        // No sound card on this machine: the named device and the default both fail to open.
        let daemon = try DaemonProcess(
            arguments: ["--input", "none", "--sound-device", "hw:CARD=NoSuchCard,DEV=0"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf"])
        try await daemon.start()
        defer {
            Task {
                _ = await daemon.terminate()
                await daemon.removeFiles()
            }
        }
        var settings = ShakyOutcome(status: 0, output: "", error: "")
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            settings = try await runBinary(["settings"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            if settings.output.contains("silent") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(
            settings.output.contains("Sound: on, but no sound device: silent, tried hw:CARD=NoSuchCard,DEV=0"),
            "\(settings)")
        #expect(settings.output.contains("`aplay -L`"), "\(settings)")
    }
}

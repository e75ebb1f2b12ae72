import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// The built `shaky board` in a real terminal (tmux) against the built `shakyd` on the demo trace, read back
/// with `capture-pane`.
@Suite("shaky board in tmux against a real shakyd")
struct BoardTmuxTests {
    /// A tmux server of the test's own, on a socket in a folder, running a command in a pane (100 × 30 unless said).
    struct Tmux {
        let socket: String
        let server: ChildProcess

        /// Starts a tmux server on a socket in `folder`, running `command` in a pane `columns` × `rows` with
        /// `environment`; runs `body` with it, then stops the server and waits for it, whether `body` returned or threw.
        static func withServer(
            folder: URL, command: [String], environment: [String: String], columns: Int = 100, rows: Int = 30,
            _ body: (Tmux) async throws -> Void
        ) async throws {
            let tmux = try Tmux(folder: folder)
            do {
                try await tmux.open(command, environment: environment, columns: columns, rows: rows)
                try await body(tmux)
            } catch {
                await tmux.kill()
                throw error
            }
            await tmux.kill()
        }

        private init(folder: URL) throws {
            socket = folder.appendingPathComponent("tmux.sock").path
            // The server runs in the foreground (-D) as a child of the test, so that no client forks a
            // daemon that outlives the test or holds its pipes.
            server = try ChildProcess("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null", "-D"])
        }

        private func open(_ command: [String], environment: [String: String], columns: Int, rows: Int) async throws {
            let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let clock = ContinuousClock()
            let end = clock.now + .seconds(20)
            while !FileManager.default.fileExists(atPath: socket), clock.now < end {
                try await clock.sleep(for: .milliseconds(20))
            }
            try await run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "env"] + assignments + command)
            // Keep the pane as it was after the board exits, to read how it exited: with no "Pane is dead" line,
            // which would scroll its first line away.
            try await run([
                "set-option", "-g", "remain-on-exit", "on", ";", "set-option", "-g", "remain-on-exit-format", "",
            ])
        }

        @discardableResult
        func run(_ arguments: [String]) async throws -> String {
            let tmux = try ChildProcess("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null"] + arguments)
            let exit = try await tmux.waitForExit(within: .seconds(20))
            #expect(exit.status == 0, "tmux \(arguments): \(tmux.standardError)")
            return tmux.standardOutput
        }

        /// The pane's text now.
        func screen() async throws -> String {
            try await run(["capture-pane", "-p"])
        }

        /// Polls the pane until `predicate` holds for its text, or fails after `deadline`.
        @discardableResult
        func waitForScreen(
            _ what: String, within deadline: Duration = .seconds(30), _ predicate: (String) -> Bool
        ) async throws -> String {
            let clock = ContinuousClock()
            let end = clock.now + deadline
            var text = ""
            while clock.now < end {
                text = try await screen()
                if predicate(text) { return text }
                // The board redraws at most every 100 ms: poll at that pace, up to the deadline.
                try await clock.sleep(for: .milliseconds(100))
            }
            Issue.record("the board never showed \(what); it showed:\n\(text)")
            throw CancellationError()
        }

        /// Stops the server and waits for it (it is killed if it does not stop within 10 seconds).
        private func kill() async {
            server.send(SIGTERM)
            _ = try? await server.waitForExit(within: .seconds(10))
        }
    }

    /// Runs `body` with `shaky board` in tmux on a real daemon with `TERM=term`, run by a shell that says how it
    /// exited ("board exited with status N").
    static func withBoardReportingItsExit(term: String, _ body: (Tmux) async throws -> Void) async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder,
                command: [
                    "/bin/sh", "-c", "\"$0\" board; echo \"board exited with status $?\"",
                    try BuiltProduct.path("shaky"),
                ],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": term, "LANG": "C.UTF-8"], body)
        }
    }

    /// The seconds on the countdown bar (`█████░░░ 23 s`), if one is shown.
    static func countdown(_ screen: String) -> Int? {
        for line in screen.split(separator: "\n") where line.contains("░") || line.hasSuffix(" s") && line.contains("█")
        {
            let words = line.split(separator: " ")
            if words.count >= 2, words.last == "s", let seconds = Int(words[words.count - 2]) { return seconds }
        }
        return nil
    }

    @Test func followsAGameAndComesBackAfterADaemonRestart() async throws {
        try await DaemonProcess.withRunning(arguments: ["--input", "demo"]) { daemon in
            let shaky = try BuiltProduct.path("shaky")
            try await Tmux.withServer(
                folder: daemon.folder,
                command: ["/bin/sh", "-c", "\"$0\" board; echo \"board exited with status $?\"", shaky],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                try await play(daemon: daemon, tmux: tmux)
            }
        }
    }

    @Test func beforeTheDaemonAnswersItSaysWhereItLooksThenWaitsForAGame() async throws {
        let daemon = try DaemonProcess()
        try await daemon.withCleanup {
            try await Tmux.withServer(
                folder: daemon.folder, command: [try BuiltProduct.path("shaky"), "board"],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                let waiting = try await tmux.waitForScreen("where the board looks for the daemon") {
                    $0.contains("Trying \(daemon.socketPath) (no socket there)")
                        && $0.contains("journalctl -u shakyd -b")
                }
                #expect(!waiting.contains("Waiting for a game"), "\(waiting)")
                #expect(!waiting.contains("shaky new"), "no game can start yet: \(waiting)")
                try await daemon.start()
                try await tmux.waitForScreen("the daemon's empty board") {
                    $0.contains("Waiting for a game") && !$0.contains("journalctl")
                }
            }
        }
    }

    /// A terminal type this system's terminfo does not know (a newer terminal, over SSH to a Pi): the board is drawn
    /// with a type it knows, and says so on the board and on leaving.
    @Test func anUnknownTerminalTypeIsDrawnWithAKnownOneAndSaidSo() async throws {
        try await Self.withBoardReportingItsExit(term: "xterm-ghostty") { tmux in
            let board = try await tmux.waitForScreen("the board, drawn all the same") {
                $0.contains("Waiting for a game") || $0.contains("board exited")
            }
            #expect(board.contains("TERM xterm-ghostty unknown here: drawn as xterm-256color"), "\(board)")
            try await tmux.run(["send-keys", "q"])
            let left = try await tmux.waitForScreen("the board quitting") {
                $0.contains("board exited with status")
            }
            #expect(left.contains("board exited with status 0"), "\(left)")
            #expect(left.replacingOccurrences(of: "\n", with: "").contains("TERM=xterm-ghostty"), "\(left)")
        }
    }

    /// Quitting gives the shell its terminal back as it was (echo, line editing, newlines), and only `q` or Ctrl-C
    /// quits: an Escape, an Alt+key or a key whose sequence terminfo does not know (Home in tmux, as xterm-256color
    /// describes it) is a stray key on the TV's keyboard.
    @Test func onlyQuitKeysEndTheBoardAndTheTerminalIsGivenBackAsItWas() async throws {
        try await DaemonProcess.withRunning { daemon in
            let script = """
                before=$(stty -g); "$0" board; status=$?
                [ "$(stty -g)" = "$before" ] && echo "terminal as before" || echo "terminal left changed: $(stty)"
                echo "board exited with status $status"
                """
            try await Tmux.withServer(
                folder: daemon.folder, command: ["/bin/sh", "-c", script, try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                try await tmux.run(["send-keys", "Escape", "M-x", "Home", "End", "F1", "x"])
                // A change drawn after the keys shows the board still runs (and has read them).
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                _ = try await client.game.new(teams: ["Owls", "Foxes"], questions: 2, seed: 7)
                await client.close()
                let drawn = try await tmux.waitForScreen("the new game, or the board gone") {
                    $0.contains("Owls") || $0.contains("board exited")
                }
                #expect(!drawn.contains("board exited"), "\(drawn)")
                try await tmux.run(["send-keys", "q"])
                let left = try await tmux.waitForScreen("the board quitting") { $0.contains("board exited") }
                #expect(left.contains("terminal as before"), "\(left)")
                #expect(left.contains("board exited with status 0"), "\(left)")
            }
        }
    }

    @Test("Ctrl-L and a new question draw over what else wrote on the screen; Ctrl-Z gives the shell the terminal")
    func repaintsAndSuspends() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder, command: ["/bin/bash", "--norc", "--noprofile", "-i"],
                environment: [
                    "SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PS1": "$ ",
                ]
            ) { tmux in
                try await tmux.run(["send-keys", "'\(try BuiltProduct.path("shaky"))' board", "Enter"])
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                _ = try await client.game.new(teams: ["Owls", "Foxes"], questions: 2, seed: 7)
                try await tmux.waitForScreen("the teams") { $0.contains("● Owls") }
                // What a console's kernel messages do: text written over the board, which curses knows nothing of.
                let tty = try await tmux.run(["display-message", "-p", "#{pane_tty}"])
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                func scribble() async throws {
                    try Data("\u{1B}[3;3H[ 1234.5678] usb 1-1: USB disconnect".utf8).write(
                        to: URL(fileURLWithPath: tty))
                    try await tmux.waitForScreen("the scribble") { $0.contains("USB disconnect") }
                }
                try await scribble()
                try await tmux.run(["send-keys", "C-l"])
                try await tmux.waitForScreen("the board drawn whole again") {
                    !$0.contains("USB disconnect") && $0.contains("● Owls")
                }
                try await scribble()
                let opened = try await client.game.next()
                let question = try #require(opened.question)
                try await tmux.waitForScreen("the question drawn over the scribble") {
                    $0.contains(question.prefix(20)) && !$0.contains("USB disconnect")
                }
                await client.close()

                try await tmux.run(["send-keys", "C-z"])
                let stopped = try await tmux.waitForScreen("the shell with the board stopped") {
                    $0.contains("Stopped") && $0.contains("$ ")
                }
                #expect(!stopped.contains(String(question.prefix(20))), "the shell has its own screen: \(stopped)")
                try await tmux.run(["send-keys", "fg", "Enter"])
                try await tmux.waitForScreen("the board back") {
                    $0.contains(question.prefix(20)) && $0.contains("● Owls")
                }
                try await tmux.run(["send-keys", "q"])
                // The shell's prompt back, before it is typed to: keys typed while the board still runs are its own.
                try await tmux.waitForScreen("the shell back") {
                    !$0.contains(question.prefix(20)) && $0.split(separator: "\n").last { !$0.isEmpty } == "$"
                }
                try await tmux.run(["send-keys", "echo \"board exited with status $?\"", "Enter"])
                try await tmux.waitForScreen("the board quitting") { $0.contains("board exited with status 0") }
            }
        }
    }

    @Test("The plain layout of a daemon that answers starts with its game, not a frame that waits for the daemon")
    func thePlainLayoutPrintsNoWaitingFrameForADaemonThatIsUp() async throws {
        try await DaemonProcess.withRunning { daemon in
            let board = try ChildProcess(
                try BuiltProduct.path("shaky"), ["board", "--plain", "--socket", daemon.socketPath],
                environment: ["SHAKY_SOCKET": nil, "COLUMNS": "60", "LINES": "12"])
            try await board.waitForOutput(containing: "Waiting for a game")
            board.send(SIGTERM)
            _ = try await board.waitForExit(within: .seconds(20))
            #expect(!board.standardOutput.contains("Waiting for the Shaky Words daemon"), "\(board.standardOutput)")
            #expect(!board.standardOutput.contains("Connecting"), "\(board.standardOutput)")
        }
    }

    @Test("Under the plain layout at a terminal (TERM=dumb), q and Enter quit")
    func thePlainLayoutQuitsWithQ() async throws {
        try await Self.withBoardReportingItsExit(term: "dumb") { tmux in
            try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
            try await tmux.run(["send-keys", "x", "Enter"])
            try await tmux.run(["send-keys", "q", "Enter"])
            try await tmux.waitForScreen("the board quitting") { $0.contains("board exited with status 0") }
        }
    }

    /// With its input at an end (`< /dev/null`, always readable) the board draws and waits as usual: it spun a core
    /// reading nothing.
    @Test func anInputAtItsEndIsNotReadInALoop() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder,
                command: ["/bin/sh", "-c", "exec \"$0\" board < /dev/null", try BuiltProduct.path("shaky")],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                let pane = try await tmux.run(["list-panes", "-F", "#{pane_pid}"])
                let pid = try #require(Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)))
                let before = try Self.cpuTicks(pid)
                try await Task.sleep(for: .seconds(2))
                let used = try Self.cpuTicks(pid) - before
                // A spinning loop takes about 200 ticks (of 10 ms) in 2 s; a waiting board next to none.
                #expect(used < 50, "the board took \(used) ticks of CPU in 2 s with nothing to show")
            }
        }
    }

    /// The CPU time `pid` has used, in clock ticks (user and system: `/proc/PID/stat` fields 14 and 15).
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command's name, which is in parentheses and may hold spaces.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }

    /// The bug a party met: the host skipped a question nobody had buzzed on, and the board said "Time's up". It says
    /// "Skipped", and still does once the board has come back to a restarted daemon (from the saved game).
    @Test func aSkippedQuestionSaysSkippedAlsoAfterADaemonRestart() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder, command: [try BuiltProduct.path("shaky"), "board"],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                _ = try await client.game.new(teams: ["Owls", "Foxes"], questions: 2, seed: 7)
                _ = try await client.game.next()
                try await tmux.waitForScreen("the open question") { $0.contains("Buzzers open") }
                #expect(try await client.game.skip().roundEnd == .skipped)
                let board = try await tmux.waitForScreen("the skipped question") {
                    $0.contains("Nobody got it") && $0.contains("Skipped")
                }
                #expect(!board.contains("Time's up"), "\(board)")
                await client.close()

                await daemon.terminate()
                try await tmux.waitForScreen("the reconnecting notice") { $0.contains("reconnecting…") }
                try await daemon.start()
                let restored = try await tmux.waitForScreen("the skipped question, from the saved game") {
                    !$0.contains("reconnecting…") && $0.contains("Skipped")
                }
                #expect(!restored.contains("Time's up"), "\(restored)")
                #expect(restored.contains("Nobody got it"), "\(restored)")
            }
        }
    }

    /// A paused game tells the room how the host goes on, with `shaky resume` or p in `shaky play`: in full on a wide
    /// board, in fewer words on the narrowest.
    @Test(arguments: [
        (40, "Paused — shaky resume, or p in play"), (100, "Paused — resume with shaky resume or p in shaky play"),
    ])
    func aPausedGameSaysHowTheHostResumes(columns: Int, words: String) async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder, command: [try BuiltProduct.path("shaky"), "board"],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"],
                columns: columns, rows: 24
            ) { tmux in
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                _ = try await client.game.new(teams: ["Owls", "Foxes"], questions: 2, seed: 7)
                _ = try await client.game.next()
                #expect(try await client.game.pause().paused)
                await client.close()
                // On one line of the pane: a notice that did not fit would be cut short with "…" or wrapped.
                try await tmux.waitForScreen("the paused notice, whole") { $0.contains(words) }
            }
        }
    }

    /// Teams named with emoji a terminal draws as one picture of several characters (a family joined by zero-width
    /// joiners, a thumb with a skin tone, a heart with its emoji selector, a flag): curses measures each character
    /// apart, so "👨‍👩‍👧‍👦 Family" lost its name and "👍🏽 Thumbs" its score. Each shows whole, in its place, and so
    /// does a Hindi name whose conjunct takes three columns.
    @Test func teamsNamedWithEmojiSequencesShowWhole() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await Tmux.withServer(
                folder: daemon.folder, command: [try BuiltProduct.path("shaky"), "board"],
                environment: ["SHAKY_SOCKET": daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
            ) { tmux in
                try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }
                let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
                let teams = ["👨‍👩‍👧‍👦 Family", "👍🏽 Thumbs", "❤️ Hearts", "🇫🇷 France", "हिन्दी टीम"]
                _ = try await client.game.new(teams: teams, questions: 2, seed: 7)
                await client.close()
                let board = try await tmux.waitForScreen("the teams") { $0.contains("Get ready") }
                let lines = board.split(separator: "\n")
                for name in ["Family", "Thumbs", "Hearts", "France", "हिन्दी टीम"] {
                    #expect(lines.contains { $0.hasSuffix(" " + name) }, "\(name) in the list of teams: \(board)")
                    #expect(board.contains("\(name) 0"), "\(name)'s score: \(board)")
                }
            }
        }
    }

    /// Hosts a game through the daemon's socket and reads the board after each move.
    private func play(daemon: DaemonProcess, tmux: Tmux) async throws {
        try await tmux.waitForScreen("the waiting screen") { $0.contains("Waiting for a game") }

        let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
        _ = try await client.game.new(
            teams: ["Owls", "Foxes"], questions: 2, seed: 7,
            rules: ShakyAPI.Rules(indicationTime: 120, timeAfterFirstBuzz: 2, answerTime: 100))
        try await tmux.waitForScreen("the teams") { $0.contains("● Owls") && $0.contains("■ Foxes") }
        let opened = try await client.game.next()
        let question = try #require(opened.question)
        let first = try await tmux.waitForScreen("the big letters and the countdown") {
            $0.contains(question.prefix(20)) && $0.contains("█") && $0.contains("Buzzers open")
                && Self.countdown($0) != nil
        }
        let start = try #require(Self.countdown(first))
        try await tmux.waitForScreen("the countdown going down from \(start) s") {
            (Self.countdown($0) ?? start) < start
        }

        // The demo trace shakes 3.46 s after the question opens: a hint puts a letter in place.
        try await tmux.waitForScreen("the letter a shake's hint moved, marked") {
            $0.contains("▲▲▲") && $0.contains("hint taken")
        }

        _ = try await client.game.buzz(team: "Owls")
        try await tmux.waitForScreen("the buzz and the team up") {
            $0.contains("Buzzed: 1. ● Owls") && $0.contains("● Owls to answer")
        }
        _ = try await client.game.adjustScore(team: "Foxes", delta: 3, reason: "bonus")
        try await tmux.waitForScreen("the scores with ranks") {
            $0.contains("1st ■ Foxes 3") && $0.contains("2nd ● Owls 0")
        }
        await client.close()

        await daemon.terminate()
        try await tmux.waitForScreen("the reconnecting notice") { $0.contains("reconnecting…") }
        try await daemon.start()
        // A restarted daemon restores the game paused.
        let restored = try await tmux.waitForScreen("the restored game") {
            !$0.contains("reconnecting…") && $0.contains(question.prefix(20)) && $0.contains("Paused")
        }
        #expect(restored.contains("1st ■ Foxes 3"), "\(restored)")
        #expect(restored.contains("Buzzed: 1. ● Owls"), "\(restored)")

        let again = try await ShakyClient.connect(socketPath: daemon.socketPath)
        _ = try await again.game.resume()
        _ = try await again.game.answer(team: "Owls", answer: "certainly not this")
        try await tmux.waitForScreen("the wrong answer") { $0.contains("● Owls: “certainly not this” WRONG") }
        await again.close()

        try await tmux.run(["send-keys", "q"])
        try await tmux.waitForScreen("the board quitting with status 0") { $0.contains("board exited with status 0") }
    }
}

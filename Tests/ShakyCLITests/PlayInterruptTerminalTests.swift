import Foundation
import ShakyTesting
import Testing

/// `shaky play` left with Ctrl-C, or stopped with Ctrl-Z, at a real terminal (tmux) against a real daemon.
@Suite("shaky play: Ctrl-C and Ctrl-Z at a terminal", .serialized)
struct PlayInterruptTerminalTests {
    @Test("Ctrl-C gives the whole screen back: the shell's next lines scroll as usual")
    func controlCGivesTheScreenBack() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 60, rows: 12,
                afterwards: "echo \"play ended: $?\"; for n in 1 2 3 4 5 6 7 8; do echo \"after $n\"; done; "
                    + "read -r typed; echo \"read: $typed\"; sleep 30"
            ) { terminal in
                try await terminal.type("b Ow")
                try await terminal.type("C-c")
                let lines = try await terminal.lines { $0.contains("after 8") }
                // Ctrl-C ends play as it ends any program (128 + SIGINT), and what the shell prints next scrolls the
                // whole screen: with the scrolling region of play left set, every line would land on the bottom one.
                #expect(lines.contains("play ended: 130"), "\(lines.joined(separator: "\n"))")
                #expect(lines.contains("after 7") && lines.contains("after 8"), "\(lines.joined(separator: "\n"))")
                // The terminal has its own line editing back: what is typed shows as it is typed, and is read as a
                // line.
                try await terminal.type("hello")
                let echoed = try await terminal.lines { $0.last { !$0.isEmpty } == "hello" }
                #expect(echoed.last { !$0.isEmpty } == "hello", "\(echoed.joined(separator: "\n"))")
                try await terminal.type("Enter")
                let read = try await terminal.lines { $0.contains("read: hello") }
                #expect(read.contains("read: hello"), "\(read.joined(separator: "\n"))")
            }
        }
    }

    @Test("Ctrl-Z gives the screen back while play is stopped, and fg lays it out again")
    func controlZGivesTheScreenBackUntilFg() async throws {
        try await Self.inAnInteractiveShell { daemon, terminal in
            try await terminal.type("'\(try BuiltProduct.path("shaky"))' play", "Enter")
            _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } }
            try await terminal.type("C-z")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await terminal.type("for n in 1 2 3 4 5 6 7 8; do echo \"after $n\"; done", "Enter")
            let stopped = try await terminal.lines { $0.contains("after 8") }
            // With play's scrolling region left set, each line would overwrite the one before on the bottom line.
            #expect(
                stopped.contains("after 7") && stopped.contains("after 8"), "\(stopped.joined(separator: "\n"))")

            // Continued in the background, play could neither read nor draw: it stops again, until fg.
            try await terminal.type("bg", "Enter")
            // `wait` returns once the job's state changes: here, once it has stopped.
            try await terminal.type("clear; wait %1; jobs", "Enter")
            let background = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            #expect(
                background.contains { $0.contains("Stopped") } && !background.contains { $0.contains("Done") },
                "\(background.joined(separator: "\n"))")

            try await terminal.type("clear; fg", "Enter")
            // Laid out again: the prompt alone on the bottom line (tmux drops its trailing space), the commands'
            // events above it.
            _ = try await terminal.lines { Self.lastShown($0) == ">" }
            try await terminal.type("st", "Enter")
            let back = try await terminal.lines { $0.contains("Owls       0") }
            #expect(back.contains("> st") && Self.lastShown(back) == ">", "\(back.joined(separator: "\n"))")
            try await terminal.type("q", "Enter")
            let left = try await terminal.lines { Self.lastShown($0) == "$" }
            #expect(Self.lastShown(left) == "$", "play ended, the shell is back: \(left.joined(separator: "\n"))")
        }
    }

    @Test("Started in the background, play stops until fg; the shell's modes are kept")
    func backgroundStartAndKillWhileStopped() async throws {
        try await Self.inAnInteractiveShell { daemon, terminal in
            let play = "'\(try BuiltProduct.path("shaky"))' play"
            // The shell's modes, to compare with those it has once play is gone.
            let (modes, before) = try await shellModes(terminal, daemon: daemon)

            try await terminal.type("\(play) &", "Enter")
            // `wait` returns once the job's state changes: here, once it has stopped.
            try await terminal.type("clear; wait %1; jobs", "Enter")
            // Stopped before it takes the terminal: the shell's lines are not drawn over.
            let stopped = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            #expect(!stopped.contains { $0.contains("Teams: 1 Owls") }, "\(stopped.joined(separator: "\n"))")
            try await terminal.type("fg", "Enter")
            _ = try await terminal.lines {
                $0.contains { $0.contains("Teams: 1 Owls") } && Self.lastShown($0) == ">"
            }
            try await terminal.type("st", "Enter")
            let playing = try await terminal.lines { $0.contains("> st") }
            #expect(playing.contains("> st"), "play reads its keys: \(playing.joined(separator: "\n"))")

            try await terminal.type("C-z")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await terminal.type(
                "clear; kill -KILL %1; stty -g > \(modes)-after; echo listed", "Enter")
            let killed = try await terminal.lines { $0.contains("listed") }
            // Killed while stopped, play does nothing more: the modes it gave back at Ctrl-Z must be the shell's own,
            // read once play was in the foreground (started with `&`, it would have read the shell's mid-line ones).
            #expect(killed.contains("listed"), "\(killed.joined(separator: "\n"))")
            let afterStop = try await waitForFile(modes + "-after")
            #expect(
                before == afterStop && !before.isEmpty, "stty -g before play and after it was killed while stopped")
        }
    }

    @Test("kill ends a stopped play at once, however it stopped; the shell's modes are kept")
    func killEndsAStoppedPlay() async throws {
        try await Self.inAnInteractiveShell { daemon, terminal in
            // On one core, as on a Pi Zero: libdispatch then runs one task of its global queues at a time.
            let play = "taskset -c 0 '\(try BuiltProduct.path("shaky"))' play"
            let (modes, before) = try await shellModes(terminal, daemon: daemon)
            // `kill %1` sends SIGTERM and continues the stopped job: play must end, not stop again before its handler
            // runs. (bash's `wait` cannot tell: it may still hold the job as stopped.)
            func killStoppedPlay(_ label: String) async throws {
                try await terminal.type("clear; jobs -p %1 > \(daemon.folder.path)/\(label)", "Enter")
                let pid = Int32((try await waitForFile(daemon.folder.path + "/" + label)).dropLast()) ?? 0
                #expect(pid > 0 && Self.processState(pid) == "T", "play stopped \(label)")
                try await terminal.type("kill %1", "Enter")
                #expect(
                    await Self.hasEnded(pid),
                    "play killed \(label) is \(Self.processState(pid).map(String.init) ?? "gone")")
                try await terminal.type("clear; jobs; echo listed", "Enter")
                let listed = try await terminal.lines { $0.contains("listed") }
                #expect(!listed.contains { $0.contains("Stopped") }, "\(label): \(listed.joined(separator: "\n"))")
            }

            // Stopped by Ctrl-Z.
            try await terminal.type(play, "Enter")
            _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } && Self.lastShown($0) == ">" }
            try await terminal.type("C-z")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await killStoppedPlay("after-ctrl-z")

            // Started with `&`, stopped before it ever had the terminal.
            try await terminal.type("clear; \(play) & wait %1", "Enter")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await killStoppedPlay("started-with-ampersand")

            // Stopped by Ctrl-Z, continued in the background by `bg`, stopped again there.
            try await terminal.type("clear; \(play)", "Enter")
            _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } && Self.lastShown($0) == ">" }
            try await terminal.type("C-z")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await terminal.type("clear; bg; wait %1", "Enter")
            _ = try await terminal.lines { $0.contains { $0.contains("Stopped") } }
            try await killStoppedPlay("after-bg")

            try await terminal.type("clear; stty -g > \(modes)-after", "Enter")
            let after = try await waitForFile(modes + "-after")
            #expect(before == after && !before.isEmpty, "stty -g before play and after it was killed while stopped")
        }
    }

    @Test("Play starts below the shell's last lines: none is overwritten by its countdown's line or prompt")
    func startKeepsTheShellsLastLines() async throws {
        try await DaemonProcess.withRunning { daemon in
            let shaky = try BuiltProduct.path("shaky")
            let new = try await runBinary(
                ["new", "--team", "Owls", "--team", "Foxes"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(new.status == 0, "\(new)")
            try await TerminalSession.run(
                ["/bin/bash", "-c", "seq 1 40; echo LAST-LINE; exec '\(shaky)' play"], in: daemon.folder,
                environment: ["SHAKY_SOCKET": daemon.socketPath], columns: 60, rows: 30
            ) { terminal in
                // The shell's lines reach the bottom row; play's first lines scroll them up, not over them.
                let lines = try await terminal.lines { $0.contains { $0.contains("Teams:") } }
                #expect(lines.contains("LAST-LINE") && lines.contains("40"), "\(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test("Ctrl-C after the terminal grew gives back the screen as it is now: the shell goes on at its bottom")
    func controlCAfterAResize() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 60, rows: 12, afterwards: "echo \"play ended: $?\"; sleep 30"
            ) { terminal in
                try await terminal.tmux(["resize-window", "-t", "play", "-x", "60", "-y", "20"])
                _ = try await terminal.lines { $0.count >= 20 && $0[19].hasPrefix(">") }
                try await terminal.type("C-c")
                let lines = try await terminal.lines { $0.contains("play ended: 130") }
                // Below what play showed, as the shell's output goes after any program's; not over its old rows.
                let row = lines.firstIndex(of: "play ended: 130") ?? 0
                #expect(row >= 18, "the row the shell went on at: \(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test("Ctrl-\\ does nothing in play, as Ctrl-S and Ctrl-Q do not")
    func controlBackslashDoesNothing() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(on: daemon, columns: 60, rows: 12) { terminal in
                try await terminal.type("s", "C-\\", "C-s", "t", "Enter")
                // One line, "st", and it runs: no quit, no frozen output.
                let status = try await terminal.lines { $0.contains("> st") && $0.contains { $0.hasPrefix("Game:") } }
                #expect(status.contains("> st"), "\(status.joined(separator: "\n"))")
                try await terminal.type("C-q")
            }
        }
    }

    /// Runs `body` in an interactive bash (which stops and continues its jobs), 60 × 12, whose `shaky` talks to a
    /// real daemon with a new game of Owls and Foxes.
    static func inAnInteractiveShell(
        _ body: (DaemonProcess, TerminalSession) async throws -> Void
    ) async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            try await TerminalSession.run(
                ["/bin/bash", "--norc", "--noprofile", "-i"], in: daemon.folder,
                environment: environment.merging(["PS1": "$ "]) { $1 }, columns: 60, rows: 12
            ) { terminal in try await body(daemon, terminal) }
        }
    }

    /// The shell's terminal modes now (`stty -g`), and the path (less `-before`) to write them to again later.
    private func shellModes(
        _ terminal: TerminalSession, daemon: DaemonProcess
    ) async throws -> (path: String, modes: String) {
        let modes = daemon.folder.path + "/modes"
        try await terminal.type("stty -g > \(modes)-before", "Enter")
        return (modes, try await waitForFile(modes + "-before"))
    }

    /// The text of the file at `path` once it has been written, within 15 s.
    private func waitForFile(_ path: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
        return ""
    }

    /// The state of process `pid` (`R`, `S`, `T` for stopped…), or `nil` once it is gone.
    static func processState(_ pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        return stat[end...].dropFirst(2).first
    }

    /// Whether process `pid` has ended (gone, or a zombie) within 15 s.
    static func hasEnded(_ pid: Int32) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            let state = processState(pid)
            if state == nil || state == "Z" { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// The last line of `lines` that shows anything.
    static func lastShown(_ lines: [String]) -> String? {
        lines.last { !$0.isEmpty }
    }
}

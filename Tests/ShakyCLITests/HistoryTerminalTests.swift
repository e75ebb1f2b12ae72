import Foundation
import ShakyTesting
import Testing

/// `shaky history` in a real terminal (a tmux pane) and through a pipe, against a real `shakyd`.
@Suite("shaky history fits the terminal", .serialized)
struct HistoryTerminalTests {
    /// What a command left in a terminal: its exit status and the lines of its pane.
    struct TerminalOutcome {
        var status: Int?
        var lines: [String]
    }

    /// Runs the built `shaky ARGUMENTS` in a tmux pane `columns` wide, in a tmux server of its own on a socket in
    /// `folder`; returns what it left once it has exited, then stops the server and waits for it.
    static func inTerminal(
        _ arguments: [String], columns: Int, socket daemonSocket: String, folder: URL
    ) async throws -> TerminalOutcome {
        let socket = folder.appendingPathComponent("tmux.sock").path
        // The server runs in the foreground (-D) as the test's child, so no forked server holds the test's pipes.
        let server = try ChildProcess("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null", "-D"])
        func tmux(_ arguments: [String]) async throws -> String {
            let run = try ChildProcess("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null"] + arguments)
            _ = try await run.waitForExit(within: .seconds(10))
            return run.standardOutput
        }
        do {
            try await server.wait(for: "the tmux server's socket", within: .seconds(10)) {
                FileManager.default.fileExists(atPath: socket)
            }
            // The pane stays when the command has exited (set before it starts, in the same call), to be read; the
            // shell says how the command exited.
            let command = ([try BuiltProduct.path("shaky")] + arguments).map { "'\($0)'" }.joined(separator: " ")
            try await tmux([
                "set-option", "-g", "remain-on-exit", "on", ";", "new-session", "-d", "-s", "shaky", "-x",
                "\(columns)", "-y", "30", "-e", "SHAKY_SOCKET=\(daemonSocket)", "/bin/sh", "-c",
                "\(command); echo \"[exit $?]\"",
            ])
            let deadline = ContinuousClock.now + .seconds(20)
            var lines: [String] = []
            while ContinuousClock.now < deadline {
                let screen = try await tmux(["capture-pane", "-p", "-t", "shaky"])
                lines = screen.split(separator: "\n").map(String.init)
                if lines.last?.hasPrefix("[exit ") == true { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            await stop()
            let status = lines.last.flatMap { Int($0.dropFirst("[exit ".count).dropLast()) }
            return TerminalOutcome(status: status, lines: status == nil ? lines : Array(lines.dropLast()))
        } catch {
            await stop()
            throw error
        }
        /// Stops the server and waits for it. Killed: it runs with the test's signal mask, where the signal that a
        /// child exited is blocked, and would wait for its pane's shell forever when asked to stop; the pane holds
        /// nothing left to end.
        func stop() async {
            server.send(SIGKILL)
            _ = try? await server.waitForExit(within: .seconds(10))
        }
    }

    @Test("A long team list is cut with “…” to an 80-column terminal, and is whole through a pipe")
    func historyFitsAnEightyColumnTerminal() async throws {
        try await DaemonProcess.withRunning { daemon in
            let teams = ["Owls", "Foxes", "Bees", "Badgers", "Otters", "Hedgehogs", "Kingfishers", "Salamanders"]
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            for command in [
                ["new"] + teams.flatMap { ["--team", $0] }, ["next"], ["score", "Owls", "+5", "--reason", "sang it"],
                ["end"],
            ] {
                let run = try await runBinary(command, environment: environment)
                #expect(run.status == 0, "\(command): \(run)")
            }

            let piped = try await runBinary(["history"], environment: environment)
            #expect(piped.status == 0, "\(piped)")
            let scores = "Owls 5, " + teams.dropFirst().map { "\($0) 0" }.joined(separator: ", ")
            #expect(
                piped.output.contains(scores + "  Owls    adjusted: Owls +5: sang it\n"), "whole when piped: \(piped)")

            let terminal = try await Self.inTerminal(
                ["history"], columns: 80, socket: daemon.socketPath, folder: daemon.folder)
            #expect(terminal.status == 0, "\(terminal)")
            let lines = terminal.lines
            // One line a game, none of them wrapped: the title and the game, each at most 80 columns.
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.first?.hasPrefix("Game  Finished") == true, "\(lines)")
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
            // The scores and the note share the room left, each cut short with "…"; the winner is whole.
            #expect(
                lines.last?.hasSuffix("  Owls 5, Foxes 0, Bees …  Owls    adjusted: Owls +5: san…") == true, "\(lines)")
            #expect(lines.last?.count == 80, "\(lines)")
        }
    }
}

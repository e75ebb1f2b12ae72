import Foundation
import ShakyTesting

/// What a command left in a terminal: its exit status and the lines of its pane.
struct TerminalOutcome {
    var status: Int?
    var lines: [String]
}

/// Runs the built `shaky ARGUMENTS` in a tmux pane `columns` wide, in a tmux server of its own on a socket in
/// `folder`; returns what it left once it has exited, then stops the server and waits for it.
func runInTerminal(
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
        try await server.waitUntilListening(at: socket, within: .seconds(10))
        // The pane stays as it was when the command has exited (set before it starts, in the same call), to be
        // read: with no "Pane is dead" line, which would scroll the first line away; the shell says how the command
        // exited.
        let command = ([try BuiltProduct.path("shaky")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        _ = try await tmux([
            "set-option", "-g", "remain-on-exit", "on", ";", "set-option", "-g", "remain-on-exit-format", "", ";",
            "new-session", "-d", "-s", "shaky", "-x",
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
    /// Stops the server and waits for it (it is killed if it has not stopped within 10 seconds).
    func stop() async {
        server.send(SIGTERM)
        _ = try? await server.waitForExit(within: .seconds(10))
    }
}

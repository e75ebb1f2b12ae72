import Foundation
import ShakyTesting
import Testing

/// `shaky play` (or another program) in a real terminal: a private tmux server of one test, running one window
/// named `play`.
///
/// The server runs in the foreground as the test's child, so no forked server holds the test's pipes.
struct TerminalSession {
    /// The tmux server's socket.
    let socket: String
    private let server: ChildProcess

    /// Starts a tmux server in `folder` and, in it, `shaky play` against `daemonSocket`, `columns` wide and
    /// `rows` high (then, when `afterwards` is given, that shell command in the same terminal); runs `body` with it,
    /// then stops the server and waits for it, whether `body` returned or threw.
    @discardableResult
    static func play<Result>(
        in folder: URL, daemonSocket: String, columns: Int, rows: Int, afterwards: String? = nil,
        _ body: (TerminalSession) async throws -> Result
    ) async throws -> Result {
        let play = try BuiltProduct.path("shaky")
        // A shell that only runs a handler of its own on SIGINT: its child gets the signal as from a terminal.
        let command = afterwards.map { ["/bin/bash", "-c", "trap : INT; '\(play)' play; \($0)"] } ?? [play, "play"]
        return try await run(
            command, in: folder, environment: ["SHAKY_SOCKET": daemonSocket], columns: columns, rows: rows, body)
    }

    /// Starts a new game of Owls and Foxes on `daemon` and, in a terminal `columns` wide and `rows` high, `shaky play`
    /// against it (then, when `afterwards` is given, that shell command); runs `body` once play shows the teams.
    static func playingANewGame(
        on daemon: DaemonProcess, columns: Int, rows: Int, afterwards: String? = nil,
        _ body: (TerminalSession) async throws -> Void
    ) async throws {
        let new = try await runBinary(
            ["new", "--team", "Owls", "--team", "Foxes"], environment: ["SHAKY_SOCKET": daemon.socketPath])
        #expect(new.status == 0, "\(new)")
        try await play(
            in: daemon.folder, daemonSocket: daemon.socketPath, columns: columns, rows: rows, afterwards: afterwards
        ) { terminal in
            _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } }
            try await body(terminal)
        }
    }

    /// Starts a tmux server in `folder` and, in it, `command` with `environment` added to the server's, `columns`
    /// wide and `rows` high; runs `body` with it, then stops the server and waits for it, whether `body` returned or
    /// threw. The server starts with `serverEnvironment` changed from the test's (`nil` removes a variable).
    @discardableResult
    static func run<Result>(
        _ command: [String], in folder: URL, environment: [String: String] = [:],
        serverEnvironment: [String: String?] = [:], columns: Int, rows: Int,
        _ body: (TerminalSession) async throws -> Result
    ) async throws -> Result {
        let socket = folder.appendingPathComponent("tmux.sock").path
        let server = try ChildProcess(
            "/usr/bin/tmux", ["-S", socket, "-f", "/dev/null", "-D"], environment: serverEnvironment)
        let session = TerminalSession(socket: socket, server: server)
        let result: Result
        do {
            try await server.waitUntilListening(at: socket, within: .seconds(10))
            let variables = environment.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
            try await session.tmux(
                ["new-session", "-d", "-s", "play", "-x", "\(columns)", "-y", "\(rows)"] + variables + command)
            result = try await body(session)
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
        return result
    }

    /// Runs `tmux ARGUMENTS` on this server and returns its standard output.
    @discardableResult
    func tmux(_ arguments: [String]) async throws -> String {
        let run = try ChildProcess("/usr/bin/tmux", ["-S", socket] + arguments)
        _ = try await run.waitForExit(within: .seconds(10))
        return run.standardOutput
    }

    /// Types `keys` (tmux key names, such as `Enter` or `C-u`) into `shaky play` (or the program running).
    func type(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", "play"] + keys)
    }

    /// The screen's text once `condition` holds for it, or as it is after `limit`.
    func screen(until condition: (String) -> Bool, within limit: Duration = .seconds(15)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        var text = ""
        while ContinuousClock.now < deadline {
            text = try await tmux(["capture-pane", "-p", "-t", "play"])
            if condition(text) { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
        return text
    }

    /// The screen's lines once `condition` holds for them, or as they are after 15 s.
    func lines(until condition: ([String]) -> Bool) async throws -> [String] {
        let text = try await screen { condition(Self.lines(of: $0)) }
        return Self.lines(of: text)
    }

    /// Stops the tmux server, and what runs in it, and waits until the server has exited (it is killed if it
    /// has not within 10 seconds).
    private func stop() async {
        server.send(SIGTERM)
        _ = try? await server.waitForExit(within: .seconds(10))
    }

    private static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

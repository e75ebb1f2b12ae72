import Foundation
import ShakyTesting
import Testing

/// Press to join in `shaky play` at a real terminal (tmux) against a real daemon: the team asked stays on the
/// line above the prompt until it has pressed, and clearing the buttons ends the joining there too.
@Suite("shaky play: press to join at a terminal", .serialized)
struct PlayJoinTerminalTests {
    @discardableResult
    private func tmux(_ socket: String, _ arguments: [String]) async throws -> String {
        let run = try ChildProcess("/usr/bin/tmux", ["-S", socket] + arguments)
        _ = try await run.waitForExit(within: .seconds(10))
        return run.standardOutput
    }

    /// The pane's lines once `condition` holds for them (or after 15 s).
    private func pane(_ socket: String, until condition: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(15)
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = try await tmux(socket, ["capture-pane", "-p", "-t", "play"])
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if condition(lines) { return lines }
            try await Task.sleep(for: .milliseconds(100))
        }
        return lines
    }

    @Test func theTeamAskedStaysAboveThePromptUntilTheButtonsAreCleared() async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "none", "--sound-device", "none", "--buzzers", "none"])
        try await daemon.start()
        let socket = daemon.folder.appendingPathComponent("tmux.sock").path
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
        let environment = ["SHAKY_SOCKET": daemon.socketPath]
        let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
        #expect(new.status == 0, "\(new)")
        try await tmux(
            socket,
            [
                "new-session", "-d", "-s", "play", "-x", "60", "-y", "12", "-e", "SHAKY_SOCKET=\(daemon.socketPath)",
                try BuiltProduct.path("shaky"), "play",
            ])
        _ = try await pane(socket) { $0.contains { $0.contains("Teams: 1 Owls") } }
        try await tmux(socket, ["send-keys", "-t", "play", "j", "Enter"])
        // Row 11 of 12, above the prompt, is the line the countdown uses: the team asked stays there.
        let asked = try await pane(socket) { $0.count >= 12 && $0[10] == "Owls: press your button" }
        #expect(asked.count >= 12 && asked[10] == "Owls: press your button", "\(asked.joined(separator: "\n"))")
        #expect(asked.count >= 12 && asked[11].hasPrefix(">"), "the prompt stays below it")
        let list = try await runBinary(["buzzers"], environment: environment)
        #expect(list.output.contains("Owls"), "\(list)")

        let cleared = try await runBinary(["buzzers", "clear"], environment: environment)
        #expect(cleared.status == 0, "\(cleared)")
        let after = try await pane(socket) { lines in
            lines.contains { $0.contains("no team has a button now") } && lines.count >= 12 && lines[10].isEmpty
        }
        #expect(after.contains { $0.contains("no team has a button now") }, "\(after.joined(separator: "\n"))")
        #expect(after.count >= 12 && after[10].isEmpty, "the joining is over: \(after.joined(separator: "\n"))")
        try await tmux(socket, ["send-keys", "-t", "play", "q", "Enter"])
    }
}

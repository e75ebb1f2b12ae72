import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// The built `shaky play` (in a real terminal, tmux) while the built `shakyd` is stopped and started again: it says
/// that it lost the daemon, and follows the game again once it is back.
@Suite("shaky play across a daemon restart", .serialized)
struct DaemonRestartTests {
    static let daemonArguments = ["--input", "none", "--sound-device", "none", "--buzzers", "none"]

    @Test func playShowsTheGameAgainAfterTheDaemonRestarts() async throws {
        let daemon = try DaemonProcess(arguments: Self.daemonArguments)
        try await daemon.start()
        defer {
            Task {
                _ = await daemon.terminate()
                await daemon.removeFiles()
            }
        }
        let environment = ["SHAKY_SOCKET": daemon.socketPath]
        let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
        #expect(new.status == 0, "\(new)")
        let terminal = try await TerminalSession.play(
            in: daemon.folder, daemonSocket: daemon.socketPath, columns: 100, rows: 20)
        defer { terminal.stop() }
        _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } }

        _ = await daemon.terminate()
        let lost = "Lost the daemon at \(daemon.socketPath): reconnecting…"
        let whileAway = try await terminal.lines { lines in lines.contains { $0.contains("! " + lost) } }
        #expect(whileAway.contains { $0.contains("! " + lost) }, "\(whileAway.joined(separator: "\n"))")
        // The line above the prompt, where the countdown goes, says it too until the daemon is back.
        #expect(whileAway.count >= 20 && whileAway[18] == lost, "\(whileAway.joined(separator: "\n"))")

        // A command typed meanwhile cannot reach the daemon: said, and play goes on.
        try await terminal.type("n", "Enter")
        let refused = try await terminal.lines { lines in
            lines.contains { $0.hasPrefix("! cannot reach the Shaky Words daemon at \(daemon.socketPath)") }
        }
        #expect(
            refused.contains { $0.hasPrefix("! cannot reach the Shaky Words daemon") },
            "\(refused.joined(separator: "\n"))")

        try await daemon.start()
        let back = try await terminal.lines { lines in
            lines.contains { $0.contains("Reconnected to the daemon at \(daemon.socketPath).") }
                && lines.count >= 20 && lines[18].isEmpty
        }
        #expect(back.contains { $0.contains("Reconnected") }, "\(back.joined(separator: "\n"))")

        try await terminal.type("n", "Enter")
        let question = try await terminal.lines { lines in
            lines.contains { $0.hasPrefix("Question 1/") } && lines.count >= 20 && lines[18].hasPrefix("[00:")
        }
        #expect(question.contains { $0.hasPrefix("Question 1/") }, "\(question.joined(separator: "\n"))")
        #expect(question.count >= 20 && question[18].hasPrefix("[00:"), "the countdown runs above the prompt")
        try await terminal.type("b 1", "Enter")
        let buzzed = try await terminal.lines { $0.contains { $0.hasPrefix("Buzz: Owls #1") } }
        #expect(buzzed.contains { $0.hasPrefix("Buzz: Owls #1") }, "\(buzzed.joined(separator: "\n"))")
        try await terminal.type("q", "Enter")
    }
}

import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// The built `shaky watch` and `shaky play` (in a real terminal, tmux) while the built `shakyd` is stopped and
/// started again: both say that they lost the daemon, and follow the game again once it is back.
@Suite("shaky watch and play across a daemon restart", .serialized)
struct DaemonRestartTests {
    @Test func watchReconnectsInsteadOfExiting() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            let watch = try ChildProcess(try BuiltProduct.path("shaky"), ["watch"], environment: environment)
            defer { watch.send(SIGKILL) }
            try await watch.waitForOutput(containing: "Game: ")

            _ = await daemon.terminate()
            try await watch.wait(for: "the lost daemon said", within: .seconds(20)) {
                watch.standardError.contains("Lost the daemon at \(daemon.socketPath): reconnecting…")
                    || watch.exit != nil
            }
            #expect(watch.exit == nil, "watch ended with \(String(describing: watch.exit)): \(watch.standardError)")
            try await daemon.start()
            try await watch.wait(for: "the daemon back and the game shown again", within: .seconds(20)) {
                watch.standardError.contains("Reconnected to the daemon at \(daemon.socketPath).")
                    && watch.standardOutput.components(separatedBy: "Game: ").count == 3
            }

            // It follows the restarted daemon's game.
            let next = try await runBinary(["next"], environment: environment)
            #expect(next.status == 0, "\(next)")
            try await watch.waitForOutput(containing: "Question 1/")
            watch.send(SIGINT)
            let exit = try await watch.waitForExit(within: .seconds(10))
            #expect(exit == .signalled(SIGINT), "\(exit)")
        }
    }

    @Test func playShowsTheGameAgainAfterTheDaemonRestarts() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            try await TerminalSession.play(
                in: daemon.folder, daemonSocket: daemon.socketPath, columns: 100, rows: 20
            ) { terminal in
                _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } }

                _ = await daemon.terminate()
                let lost = "Lost the daemon at \(daemon.socketPath): reconnecting…"
                let whileAway = try await terminal.lines { lines in lines.contains { $0.contains("! " + lost) } }
                #expect(whileAway.contains { $0.contains("! " + lost) }, "\(whileAway.joined(separator: "\n"))")
                // The line above the prompt, where the countdown goes, says it too until the daemon is back.
                #expect(whileAway.count >= 20 && whileAway[18] == lost, "\(whileAway.joined(separator: "\n"))")

                // A command typed meanwhile cannot reach the daemon: said, with what to do (wait, not start a daemon),
                // and play goes on.
                try await terminal.type("n", "Enter")
                let refused = try await terminal.lines { lines in
                    lines.joined().contains("type the command again")
                }
                #expect(
                    refused.contains {
                        $0.hasPrefix("! not done: cannot reach the Shaky Words daemon at \(daemon.socketPath)")
                    }, "\(refused.joined(separator: "\n"))")
                #expect(refused.joined().contains("play reconnects by itself"), "\(refused.joined(separator: "\n"))")
                #expect(!refused.joined().contains("Start it with"), "\(refused.joined(separator: "\n"))")

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
    }
}

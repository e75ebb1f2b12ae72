import Foundation
import ShakyTesting
import Testing

/// A pause in `shaky play` at a real terminal (tmux) against a real daemon: no tick comes while the game is paused,
/// so the countdown's line says it is paused, not the phase it had before.
@Suite("shaky play: a pause at a terminal", .serialized)
struct PlayPauseTerminalTests {
    @Test("Paused, the countdown's line says so with the time left, and the countdown comes back on resuming")
    func theCountdownsLineSaysPaused() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 80, rows: 12
            ) { terminal in
                try await terminal.type("n", "Enter")
                // Row 11 of 12, above the prompt, is the countdown's line.
                _ = try await terminal.lines { $0.count >= 12 && $0[10].contains("buzzers open") }
                try await terminal.type("p", "Enter")
                let paused = try await terminal.lines {
                    $0.count >= 12 && $0[10].contains("paused") && $0.contains { $0.hasPrefix("Paused with 0") }
                }
                let screen = paused.joined(separator: "\n")
                // The question's 60 s, or less once a second passed.
                #expect(
                    paused.count >= 12 && paused[10].range(of: #"^\[0[01]:\d\d\]"#, options: .regularExpression) != nil,
                    "the time left: \(screen)")
                #expect(paused.count >= 12 && paused[10].contains("] paused, type p to resume"), "\(screen)")
                #expect(paused.count >= 12 && !paused[10].contains("buzzers open"), "\(screen)")
                #expect(paused.contains { $0.hasPrefix("Paused with 0") }, "the event says the time left: \(screen)")

                try await terminal.type("p", "Enter")
                let resumed = try await terminal.lines { $0.count >= 12 && $0[10].contains("buzzers open") }
                #expect(resumed.count >= 12 && !resumed[10].contains("paused"), "\(resumed.joined(separator: "\n"))")
                try await terminal.type("q", "Enter")
            }
        }
    }

    @Test("Started, or following the game again, while it is paused, the countdown's line says so")
    func startingIntoAPausedGame() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            for command in [["new", "--team", "Owls", "--team", "Foxes"], ["next"], ["pause"]] {
                let run = try await runBinary(command, environment: environment)
                #expect(run.status == 0, "\(run)")
            }
            try await TerminalSession.play(
                in: daemon.folder, daemonSocket: daemon.socketPath, columns: 80, rows: 12
            ) { terminal in
                let paused = try await terminal.lines { $0.count >= 12 && $0[10].contains("paused") }
                #expect(
                    paused.count >= 12 && paused[10].contains("] paused, type p to resume"),
                    "\(paused.joined(separator: "\n"))")
            }
        }
    }
}

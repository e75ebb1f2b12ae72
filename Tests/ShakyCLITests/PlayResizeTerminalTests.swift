import Foundation
import ShakyTesting
import Testing

/// `shaky play` in a real terminal (tmux) that the host resizes, against a real daemon.
@Suite("shaky play: a resized terminal", .serialized)
struct PlayResizeTerminalTests {
    @Test("After a resize the prompt is the new bottom line and events scroll above the countdown's line")
    func aResizedTerminalIsLaidOutAgain() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 60, rows: 12
            ) { terminal in
                try await terminal.tmux(["resize-window", "-t", "play", "-x", "60", "-y", "20"])
                _ = try await terminal.lines { $0.count >= 20 && $0[19].hasPrefix(">") }
                try await terminal.type("t", "Enter")
                // The scoreboard is an event: it ends on row 18 of 20, above the countdown's line and the prompt (tied
                // at 0, Foxes, set up second, is its last row).
                let lines = try await terminal.lines { $0.count >= 20 && $0[17].contains("Foxes") }
                let screen = lines.joined(separator: "\n")
                #expect(lines.count >= 20 && lines[19].hasPrefix(">"), "the prompt is the bottom line: \(screen)")
                #expect(lines.count >= 20 && lines[17].contains("Foxes"), "the scoreboard's last row: \(screen)")
            }
        }
    }
}

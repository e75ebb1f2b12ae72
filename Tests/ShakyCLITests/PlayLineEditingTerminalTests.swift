import Foundation
import ShakyTesting
import Testing

/// What the host types in `shaky play` at a real terminal (tmux) against a real daemon: the prompt row holds it
/// whole, whatever its length, whatever the game prints meanwhile, and across a resize.
@Suite("shaky play: typing at a terminal", .serialized)
struct PlayLineEditingTerminalTests {
    @Test("A line longer than the screen scrolls sideways on the prompt row, and is sent whole")
    func aLongLineScrollsOnItsRow() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 30, rows: 12
            ) { terminal in
                let answer = "a snow leopard of the high mountains"
                try await terminal.type(answer)
                // The end of the line, after `<`, on the bottom row; the countdown's row above it untouched.
                let typed = try await terminal.lines { $0.count >= 12 && $0[11].hasSuffix("high mountains") }
                let screen = typed.joined(separator: "\n")
                #expect(typed.count >= 12 && typed[11].hasPrefix("> <"), "the line goes on to the left: \(screen)")
                #expect(typed.count >= 12 && typed[10].isEmpty, "nothing ran over the countdown's row: \(screen)")
                try await terminal.type("Home")
                let start = try await terminal.lines { $0.count >= 12 && $0[11].hasPrefix("> a snow") }
                #expect(start.count >= 12 && start[11].hasSuffix(">"), "\(start.joined(separator: "\n"))")
                try await terminal.type("Enter")
                // Echoed above whole (wrapped between words), and answered: nobody has buzzed.
                let sent = try await terminal.lines { $0.contains { $0.contains("nobody is up to answer") } }
                let words = sent.joined(separator: " ").split(separator: " ").joined(separator: " ")
                #expect(words.contains("> " + answer), "\(sent.joined(separator: "\n"))")
                #expect(sent.count >= 12 && sent[11] == ">", "a fresh prompt: \(sent.joined(separator: "\n"))")
            }
        }
    }

    @Test("A paste of several lines is one line on the prompt row: nothing in it runs before Enter")
    func aPasteIsOneLine() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(on: daemon, columns: 60, rows: 12) { terminal in
                try await terminal.tmux(["set-buffer", "e\ny\nsnow\tleopard"])
                // As a terminal pastes for a program that asked for bracketed paste.
                try await terminal.tmux(["paste-buffer", "-p", "-t", "play"])
                let pasted = try await terminal.lines { $0.count >= 12 && $0[11] == "> e y snow leopard" }
                #expect(pasted.count >= 12 && pasted[11] == "> e y snow leopard", "\(pasted.joined(separator: "\n"))")
                #expect(!pasted.contains { $0.contains("End the game") }, "\(pasted.joined(separator: "\n"))")
                try await terminal.type("C-u", "st", "Enter")
                let status = try await terminal.lines { $0.contains { $0.hasPrefix("Game:") } && $0.contains("> st") }
                #expect(!status.contains { $0.contains("End the game") }, "\(status.joined(separator: "\n"))")
            }
        }
    }

    @Test("Arrows, Ctrl-W and Up edit the line as in bash")
    func editingKeys() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 60, rows: 12
            ) { terminal in
                try await terminal.type("+ Ols 5 gusses", "C-w", "guess", "Home", "Right", "Right", "Right")
                try await terminal.type("w", "Enter")
                _ = try await terminal.lines { $0.contains("> + Owls 5 guess") }
                try await terminal.type("Up", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "again", "Enter")
                let lines = try await terminal.lines { $0.contains("> + Owls 5 again") }
                #expect(lines.contains("> + Owls 5 again"), "\(lines.joined(separator: "\n"))")
                try await terminal.type("t", "Enter")
                let scores = try await terminal.lines { $0.contains { $0.contains("Owls") && $0.contains("10") } }
                #expect(
                    scores.contains { $0.contains("Owls") && $0.contains("10") }, "\(scores.joined(separator: "\n"))")
            }
        }
    }

    @Test("A resize draws the screen again: the paused countdown's line and the last events, nothing wrapped anew")
    func aResizeRedrawsTheScreen() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(on: daemon, columns: 60, rows: 15) { terminal in
                try await terminal.type("n", "Enter")
                _ = try await terminal.lines { $0.count >= 15 && $0[13].contains("buzzers open") }
                try await terminal.type("p", "Enter")
                _ = try await terminal.lines { $0.count >= 15 && $0[13].contains("paused") }
                try await terminal.type("a the quick brown fox jumps over the lazy dog again")
                _ = try await terminal.lines { $0.count >= 15 && $0[14].hasSuffix("lazy dog again") }
                try await terminal.tmux(["resize-window", "-t", "play", "-x", "20", "-y", "13"])
                // Drawn again once the prompt row is play's own at the new width (until then the terminal shows its
                // old rows, cut or moved).
                let resized = try await terminal.lines {
                    $0.count >= 13 && $0[12] == "> <e lazy dog again" && $0[11].contains("paused")
                }
                let screen = resized.joined(separator: "\n")
                // No tick comes while paused: the line is drawn again from what it showed.
                #expect(resized.count >= 13 && resized[11].contains("paused"), "\(screen)")
                #expect(resized.count >= 13 && resized[12] == "> <e lazy dog again", "\(screen)")
                // The old prompt row, wrapped anew by the terminal, is not left among the events.
                #expect(resized.filter { $0.contains("lazy dog") }.count == 1, "\(screen)")
                #expect(resized.contains { $0.hasPrefix("Paused with") }, "the last events are back: \(screen)")
            }
        }
    }

    @Test("A resize keeps the half-typed line on the new prompt row, and the game's events never erase it")
    func aResizeKeepsTheLine() async throws {
        try await DaemonProcess.withRunning { daemon in
            try await TerminalSession.playingANewGame(
                on: daemon, columns: 60, rows: 12
            ) { terminal in
                try await terminal.type("b Ow")
                _ = try await terminal.lines { $0.count >= 12 && $0[11] == "> b Ow" }
                try await terminal.tmux(["resize-window", "-t", "play", "-x", "60", "-y", "20"])
                let resized = try await terminal.lines { $0.count >= 20 && $0[19] == "> b Ow" }
                #expect(resized.count >= 20 && resized[19] == "> b Ow", "\(resized.joined(separator: "\n"))")
                // The game's events (another client opens a question) scroll above it.
                let next = try await runBinary(["next"], environment: ["SHAKY_SOCKET": daemon.socketPath])
                #expect(next.status == 0, "\(next)")
                let question = try await terminal.lines { $0.count >= 20 && $0[18].contains("buzzers open") }
                #expect(question.count >= 20 && question[19] == "> b Ow", "\(question.joined(separator: "\n"))")
                try await terminal.type("ls", "Enter")
                let buzzed = try await terminal.lines { $0.contains { $0.hasPrefix("Buzz: Owls #1") } }
                #expect(buzzed.contains("> b Owls"), "\(buzzed.joined(separator: "\n"))")
            }
        }
    }
}

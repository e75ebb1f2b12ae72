import Foundation
import ShakyTesting
import Testing

/// `shaky history` in a real terminal (a tmux pane) and through a pipe, against a real `shakyd`.
@Suite("shaky history fits the terminal", .serialized)
struct HistoryTerminalTests {
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

            let terminal = try await runInTerminal(
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

    @Test("On a 40-column terminal (a phone) no line wraps: the note, then the winner, are left off")
    func historyFitsAFortyColumnTerminal() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            for command in [
                ["new", "--team", "Les Éléphants", "--team", "Foxes & Co", "--team", "Zoë"], ["next"],
                ["score", "Zoë", "+3", "--reason", "bonus pour l'ambiance"], ["end"],
            ] {
                let run = try await runBinary(command, environment: environment)
                #expect(run.status == 0, "\(command): \(run)")
            }
            let terminal = try await runInTerminal(
                ["history"], columns: 40, socket: daemon.socketPath, folder: daemon.folder)
            #expect(terminal.status == 0, "\(terminal)")
            let lines = terminal.lines
            #expect(lines.count == 2, "one line a game, none wrapped: \(lines)")
            #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
            #expect(lines.first == "Game  Finished          Scores", "\(lines)")
            #expect(lines.last?.hasSuffix("  Zoë 3, Les Élép…") == true, "\(lines)")
        }
    }
}

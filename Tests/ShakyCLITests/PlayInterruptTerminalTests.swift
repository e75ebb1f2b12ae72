import Foundation
import ShakyTesting
import Testing

/// `shaky play` left with Ctrl-C at a real terminal (tmux) against a real daemon.
@Suite("shaky play: Ctrl-C at a terminal", .serialized)
struct PlayInterruptTerminalTests {
    @Test("Ctrl-C gives the whole screen back: the shell's next lines scroll as usual")
    func controlCGivesTheScreenBack() async throws {
        try await DaemonProcess.withRunning { daemon in
            let environment = ["SHAKY_SOCKET": daemon.socketPath]
            let new = try await runBinary(["new", "--team", "Owls", "--team", "Foxes"], environment: environment)
            #expect(new.status == 0, "\(new)")
            try await TerminalSession.play(
                in: daemon.folder, daemonSocket: daemon.socketPath, columns: 60, rows: 12,
                afterwards: "echo \"play ended: $?\"; for n in 1 2 3 4 5 6 7 8; do echo \"after $n\"; done; "
                    + "sleep 30"
            ) { terminal in
                _ = try await terminal.lines { $0.contains { $0.contains("Teams: 1 Owls") } }
                try await terminal.type("C-c")
                let lines = try await terminal.lines { $0.contains("after 8") }
                // Ctrl-C ends play as it ends any program (128 + SIGINT), and what the shell prints next scrolls the
                // whole screen: with the scrolling region of play left set, every line would land on the bottom one.
                #expect(lines.contains("play ended: 130"), "\(lines.joined(separator: "\n"))")
                #expect(lines.contains("after 7") && lines.contains("after 8"), "\(lines.joined(separator: "\n"))")
            }
        }
    }
}

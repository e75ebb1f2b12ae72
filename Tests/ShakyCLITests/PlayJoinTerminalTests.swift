import Foundation
import ShakyTesting
import Testing

/// Press to join in `shaky play` at a real terminal (tmux) against a real daemon: the team asked stays on the
/// line above the prompt until it has pressed, and clearing the buttons or a new game of other teams ends the
/// joining there too.
@Suite("shaky play: press to join at a terminal", .serialized)
struct PlayJoinTerminalTests {
    /// The emulated buzzer devices of the drivers' tests (a joining needs a device that could be pressed).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ShakyDriversTests/Fixtures")

    /// A script that runs `shakyd` inside umockdev's emulated /sys and /dev with the buzzer devices plugged in.
    static func shakydWithButtons(in folder: URL) throws -> URL {
        let nodes = [30, 31, 32, 33, 34].flatMap { node in
            ["-i", "/dev/input/event\(node)=" + fixtures.appendingPathComponent("buzzer-event\(node).ioctl").path]
        }
        let command =
            ["/usr/bin/umockdev-run", "-d", fixtures.appendingPathComponent("buzzers.umockdev").path] + nodes
            + ["--", try BuiltProduct.path("shakyd")]
        let wrapper = folder.appendingPathComponent("shakyd-with-buttons")
        try ("#!/bin/sh\nexec " + command.map { "'\($0)'" }.joined(separator: " ") + " \"$@\"\n").write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        return wrapper
    }

    /// Runs `body` with a real `shakyd` reading the emulated buttons, and stops it.
    static func withDaemonReadingButtons(_ body: (DaemonProcess) async throws -> Void) async throws {
        let scripts = try TemporaryDirectory(prefix: "shaky-play-join")
        defer { scripts.remove() }
        let daemon = try DaemonProcess(
            arguments: ["--buzzers", "auto"],
            executable: try Self.shakydWithButtons(in: URL(fileURLWithPath: scripts.path)))
        // umockdev-run does not pass SIGTERM on: shakyd is stopped through it, whatever the test found.
        try await daemon.withCleanup(throughWrapper: true) {
            try await daemon.start()
            try await body(daemon)
            #expect(await daemon.terminateThroughWrapper() == .exited(0), "\(daemon.log())")
        }
    }

    @Test func theTeamAskedStaysAboveThePromptUntilTheButtonsAreCleared() async throws {
        try await Self.withDaemonReadingButtons { try await playJoinAndClear($0) }
    }

    @Test func aNewGameOfOtherTeamsTakesTheTeamAskedOffThePromptsLineAtOnce() async throws {
        try await Self.withDaemonReadingButtons { try await playJoinThenNewGame($0) }
    }

    private func playJoinAndClear(_ daemon: DaemonProcess) async throws {
        try await TerminalSession.playingANewGame(
            on: daemon, columns: 60, rows: 12
        ) { terminal in
            try await terminal.type("j", "Enter")
            // Row 11 of 12, above the prompt, is the line the countdown uses: the team asked stays there.
            let asked = try await terminal.lines { $0.count >= 12 && $0[10] == "Owls: press your button" }
            #expect(asked.count >= 12 && asked[10] == "Owls: press your button", "\(asked.joined(separator: "\n"))")
            #expect(asked.count >= 12 && asked[11].hasPrefix(">"), "the prompt stays below it")
            let list = try await runBinary(["buzzers"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(list.output.contains("Owls"), "\(list)")

            let cleared = try await runBinary(["buzzers", "clear"], environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(cleared.status == 0, "\(cleared)")
            let after = try await terminal.lines { lines in
                lines.contains { $0.contains("no team has a button now") } && lines.count >= 12 && lines[10].isEmpty
            }
            #expect(after.contains { $0.contains("no team has a button now") }, "\(after.joined(separator: "\n"))")
            #expect(after.count >= 12 && after[10].isEmpty, "the joining is over: \(after.joined(separator: "\n"))")
            try await terminal.type("q", "Enter")
        }
    }

    private func playJoinThenNewGame(_ daemon: DaemonProcess) async throws {
        try await TerminalSession.playingANewGame(
            on: daemon, columns: 100, rows: 12
        ) { terminal in
            try await terminal.type("j", "Enter")
            _ = try await terminal.lines { $0.count >= 12 && $0[10] == "Owls: press your button" }

            let other = try await runBinary(
                ["new", "--replace", "--team", "Bears", "--team", "Wolves"],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            #expect(other.status == 0, "\(other)")
            let after = try await terminal.lines { lines in
                lines.contains { $0.contains("Join: no longer asking Owls") } && lines.count >= 12
                    && lines[10].isEmpty
            }
            #expect(
                after.contains { $0.contains("the new game's teams are others") }, "\(after.joined(separator: "\n"))")
            #expect(after.count >= 12 && after[10].isEmpty, "nobody is asked: \(after.joined(separator: "\n"))")
            try await terminal.type("q", "Enter")
        }
    }
}

import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import TriviaEngine

@testable import ShakyDaemon

/// What a power cut may take back: every write reaches the disk before it is answered or announced, except a hint's
/// save, which is only written (a crash keeps it), so a shake's hint does not wait for an SD card.
@Suite("Saves that reach the disk")
struct SaveDurabilityTests {
    @Test("Only a save of hints alone is left unsynced")
    func durabilityOfActions() {
        let hint = GameAction.hintRevealed(
            display: ScrambleDisplay(tiles: [.init(text: "O", isLetter: true, isFixed: true)]), points: 8,
            hintsUsed: 1, source: .shake)
        #expect(GameRuntime.durability(of: [hint]) == .written)
        #expect(GameRuntime.durability(of: [hint, .wake(after: .seconds(1))]) == .written)
        #expect(GameRuntime.durability(of: [hint, .phaseChanged(.answering(team: "Owls"))]) == .disk)
        #expect(GameRuntime.durability(of: [.buzzUndone(team: "Owls")]) == .disk)
        #expect(GameRuntime.durability(of: [.paused, .cancelWake]) == .disk)
    }

    @Test("A round opening, a buzz and a new pack sync the write-ahead log before they are answered; hints do not")
    func onlyHintsSkipTheSync() async throws {
        try await DaemonProcess.withRunning { daemon in
            let pid = try #require(daemon.processID)
            let game = DaemonProcess.GameClient(try await daemon.connect())
            try await game.createPack(
                "Durable",
                questions: [ShakyAPI.Question(text: "A bird of the night", answer: "nightingale", difficulty: .easy)])
            _ = try await game.new(
                teams: ["Owls", "Foxes"], packs: ["Durable"], questions: 1,
                rules: .init(indicationTime: 3600, maximumHints: 3, hintCooldown: 0))

            // strace stops each of the daemon's threads as its fdatasync or fsync returns and writes the line (with the
            // file's path, -y) before letting it go on, so a reply that comes after a sync finds its line written.
            // Attaching to a running process takes root (or CAP_SYS_PTRACE), as the tests have, as CI does.
            let trace = FileManager.default.temporaryDirectory.appendingPathComponent("syncs-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: trace) }
            let strace = try ChildProcess(
                "/usr/bin/strace", ["-f", "-y", "-e", "trace=fdatasync,fsync", "-p", "\(pid)", "-o", trace])
            defer { strace.send(SIGKILL) }
            try await strace.wait(for: "strace to attach to shakyd", within: .seconds(20)) {
                strace.standardError.contains("attached")
            }
            let log = daemon.stateDirectory + "/shaky.sqlite-wal>"
            func logSyncs() -> Int {
                let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").filter { $0.contains(log) }.count
            }

            let before = logSyncs()
            _ = try await game.next()
            #expect(logSyncs() == before + 1, "the round's opening is on the disk when it is answered")
            _ = try await game.hint()
            _ = try await game.hint()
            _ = try await game.buzz(team: "Owls")
            #expect(logSyncs() == before + 2, "two hints add no sync, the buzz one")
            _ = try await ShakyAPI.PacksInterface.Client(game.transport).create(name: "Made at the party")
            #expect(logSyncs() == before + 3, "a pack made is on the disk when it is answered, as every other write")
            await game.transport.close()
            // The kernel lets the daemon go on when its tracer ends, even killed.
            strace.send(SIGKILL)
            _ = try await strace.waitForExit()
            let after = DaemonProcess.GameClient(try await daemon.connect())
            #expect(try await after.status().hintsUsed == 2, "the daemon goes on without its tracer")
            await after.transport.close()
        }
    }
}

/// A daemon whose terminal closes (SIGHUP) stops as on SIGTERM: the game saved, the database closed.
@Suite("Hang-up")
struct HangUpTests {
    @Test("SIGHUP saves the game and stops cleanly; the restart finds the last hint")
    func aHangUpSavesAndStops() async throws {
        try await DaemonProcess.withRunning { daemon in
            var game = DaemonProcess.GameClient(try await daemon.connect())
            try await game.createPack(
                "Hang-up", questions: [ShakyAPI.Question(text: "A bird of the night", answer: "owl", difficulty: .easy)]
            )
            _ = try await game.new(teams: ["Owls", "Foxes"], packs: ["Hang-up"], questions: 1)
            _ = try await game.next()
            _ = try await game.hint()
            await game.transport.close()
            #expect(await daemon.hangUp() == .exited(0))
            #expect(daemon.log().contains("stopped; the game is saved"), "\(daemon.log())")
            #expect(!FileManager.default.fileExists(atPath: daemon.databasePath + "-wal"), "the database was closed")

            try await daemon.start()
            game = DaemonProcess.GameClient(try await daemon.connect())
            #expect(try await game.status().hintsUsed == 1)
            await game.transport.close()
        }
    }
}

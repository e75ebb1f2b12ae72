import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A state folder on a file system mounted read-only for real (a Pi's card remounted read-only after errors): a read-only
/// bind mount of the folder over itself.
@Suite("Read-only file system", .tags(.heavy))
struct ReadOnlyFileSystemTests {
    /// Mounts `folder` read-only over itself (the tests run as root, as CI does).
    static func mountReadOnly(_ folder: String) async throws {
        for arguments in [["--bind", folder, folder], ["-o", "remount,bind,ro", folder]] {
            let mount = try ChildProcess("/bin/mount", arguments)
            let exit = try await mount.waitForExit(within: .seconds(60))
            try #require(exit.status == 0 && !exit.signaled, "mount \(arguments): \(mount.standardError)")
        }
    }

    /// Unmounts `folder` (lazily, so nothing left open can keep it); nothing happens when nothing is mounted there.
    static func unmount(_ folder: String) async {
        _ = try? await ChildProcess("/bin/umount", ["-l", folder]).waitForExit(within: .seconds(60))
    }

    /// Starts `daemon`, opens a game's first question and gives Owls `points`; returns the status after that.
    static func playFirstQuestion(on daemon: DaemonProcess, owlsScoring points: Int) async throws -> ShakyAPI.State {
        try await daemon.start()
        let client = DaemonProcess.GameClient(try await daemon.connect())
        try await client.createPack(
            "Read-only quiz",
            questions: [
                ShakyAPI.Question(text: "A bird that hoots at night", answer: "owl", difficulty: .easy),
                ShakyAPI.Question(text: "A striped horse", answer: "zebra", difficulty: .easy),
            ])
        _ = try await client.new(teams: ["Owls", "Foxes"], packs: ["Read-only quiz"], questions: 2)
        _ = try await client.next()
        let saved = try await client.adjustScore(team: "Owls", delta: points, reason: "warm-up")
        await client.transport.close()
        return saved
    }

    /// Runs `body` with a daemon of its own, then stops it, unmounts its state folder (if `body` mounted it) and
    /// removes its files, however `body` ended.
    static func withDaemon(_ body: (DaemonProcess) async throws -> Void) async throws {
        let daemon = try DaemonProcess()
        do {
            try await body(daemon)
        } catch {
            await daemon.kill()
            await unmount(daemon.stateDirectory)
            await daemon.removeFiles()
            throw error
        }
        await unmount(daemon.stateDirectory)
        await daemon.removeFiles()
    }

    @Test("Read-only after a daemon that did not stop cleanly: the saves still in its log are served")
    func servesTheSavesInTheLeftLog() async throws {
        try await Self.withDaemon { daemon in
            let saved = try await Self.playFirstQuestion(on: daemon, owlsScoring: 7)
            await daemon.kill()  // the write-ahead log and its index stay beside the file
            #expect(FileManager.default.fileExists(atPath: daemon.databasePath + "-wal"))

            try await Self.mountReadOnly(daemon.stateDirectory)
            try await daemon.start()
            let client = DaemonProcess.GameClient(try await daemon.connect())
            #expect(try await client.status().scores == saved.scores)
            #expect(daemon.log().contains("serving the saved game read-only"), "\(daemon.log())")
            await client.transport.close()
            #expect(await daemon.terminate() == .exited(0))
        }
    }

    @Test("On a read-only file system shakyd starts, serves the saved game and packs, and refuses changes")
    func servesTheSavedGameReadOnly() async throws {
        try await Self.withDaemon { daemon in
            let saved = try await Self.playFirstQuestion(on: daemon, owlsScoring: 3)
            #expect(await daemon.terminate() == .exited(0))

            try await Self.mountReadOnly(daemon.stateDirectory)
            #expect(access(daemon.stateDirectory, W_OK) != 0 && errno == EROFS)

            let start = daemon.log().count
            try await daemon.start()
            let client = DaemonProcess.GameClient(try await daemon.connect())
            let status = try await client.status()
            #expect(status.scores == saved.scores)
            #expect(status.question == saved.question)
            #expect(status.paused)
            let log = String(daemon.log().dropFirst(start))
            #expect(log.contains("serving the saved game read-only"), "\(log)")
            #expect(log.contains("is read-only"), "\(log)")

            // A change is refused with StorageFailed saying why; reads go on.
            do {
                _ = try await client.adjustScore(team: "Owls", delta: 1, reason: "read-only")
                Issue.record("a change was accepted on a read-only file system")
            } catch let error as VarlinkError {
                #expect(error.remoteName == "io.shakywords.Game.StorageFailed")
                #expect("\(error)".contains("read-only"), "\(error)")
            }
            #expect(try await client.status().scores == saved.scores)
            await client.transport.close()

            // A second daemon on the same folder is still refused (the lock needs no writing).
            let second = try DaemonProcess(arguments: ["--state-dir", daemon.stateDirectory])
            await #expect(throws: (any Error).self) { try await second.start(readyWithin: .seconds(10)) }
            #expect(second.log().contains("already using it"), "\(second.log())")
            await second.removeFiles()
            #expect(await daemon.terminate() == .exited(0))
        }
    }
}

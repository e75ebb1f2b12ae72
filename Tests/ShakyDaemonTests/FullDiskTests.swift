import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A full disk for real: a small tmpfs mounted on the daemon's state folder and filled to the last block.
@Suite("Full disk", .tags(.heavy))
struct FullDiskTests {
    /// A tmpfs of its own, mounted on a folder (the tests run as root, as CI does).
    struct SmallFileSystem {
        let mountPoint: String
        private var fillerPath: String { mountPoint + "/filler" }

        /// Mounts a tmpfs of `megabytes` MiB on `mountPoint` (created if needed).
        init(at mountPoint: String, megabytes: Int) async throws {
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            self.mountPoint = mountPoint
            let mount = try ChildProcess(
                "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "shaky-full-disk", mountPoint])
            let exit = try await mount.waitForExit(within: .seconds(60))
            try #require(exit.status == 0 && !exit.signaled, "mount: \(mount.standardError)")
        }

        /// Writes a file until the file system has no block left.
        func fill() throws {
            let descriptor = open(fillerPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0, "cannot create \(fillerPath): \(String(cString: strerror(errno)))")
            defer { close(descriptor) }
            let block = [UInt8](repeating: 0, count: 4096)
            while true {
                let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written > 0 { continue }
                try #require(written < 0 && errno == ENOSPC, "writing the filler: \(String(cString: strerror(errno)))")
                return
            }
        }

        /// Frees what ``fill()`` took.
        func free() {
            unlink(fillerPath)
        }

        /// The blocks still free.
        func availableBlocks() -> UInt {
            var status = statvfs()
            return statvfs(mountPoint, &status) == 0 ? status.f_bavail : 0
        }

        /// Unmounts it (lazily, so nothing left open can keep it).
        func unmount() async {
            _ = try? await ChildProcess("/bin/umount", ["-l", mountPoint]).waitForExit(within: .seconds(60))
        }
    }

    static let questions = [
        ShakyAPI.Question(text: "A bird that hoots at night", answer: "owl", difficulty: .easy),
        ShakyAPI.Question(text: "A striped horse", answer: "zebra", difficulty: .easy),
    ]

    @Test("On a full disk shakyd starts read-only, refuses changes, logs the truth, and saves again once there is room")
    func startsReadOnlyAndRecovers() async throws {
        try await Self.onSmallDisk { daemon, disk in try await runThroughFullDisk(daemon, disk) }
    }

    /// Runs `body` with a daemon (not started) whose state folder is on a small file system of its own, then kills
    /// the daemon, unmounts the file system and removes the files, whether `body` threw or not.
    private static func onSmallDisk(_ body: (DaemonProcess, SmallFileSystem) async throws -> Void) async throws {
        let daemon = try DaemonProcess()
        let disk = try await SmallFileSystem(at: daemon.stateDirectory, megabytes: 16)
        do {
            try await body(daemon, disk)
        } catch {
            await daemon.kill()
            await disk.unmount()
            await daemon.removeFiles()
            throw error
        }
        await daemon.kill()
        await disk.unmount()
        await daemon.removeFiles()
    }

    @Test("A disk that fills while nothing changes: the stop's failed save is not called a lost game")
    func aDiskFilledAfterTheLastSaveLosesNothing() async throws {
        try await Self.onSmallDisk { daemon, disk in
            try await daemon.start()
            let client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack("Full disk quiz", questions: Self.questions)
            _ = try await client.new(teams: ["Owls", "Foxes"], packs: ["Full disk quiz"], questions: 2)
            _ = try await client.next()
            _ = try await client.adjustScore(team: "Owls", delta: 3, reason: "warm-up")
            _ = try await client.pause()
            await client.transport.close()
            // The save on the way out fails, but the last one, the pause, holds the game as it stands.
            try disk.fill()
            #expect(await daemon.terminate() == .exited(0))
            let log = daemon.log()
            #expect(log.contains("its last save holds it") && log.contains("stopped; the game is saved"), "\(log)")
            #expect(!log.contains("could not be saved"), "\(log)")
        }
    }

    private func runThroughFullDisk(_ daemon: DaemonProcess, _ disk: SmallFileSystem) async throws {
        try await daemon.start()
        var client = DaemonProcess.GameClient(try await daemon.connect())
        try await client.createPack("Full disk quiz", questions: Self.questions)
        _ = try await client.new(teams: ["Owls", "Foxes"], packs: ["Full disk quiz"], questions: 2)
        _ = try await client.next()
        let saved = try await client.adjustScore(team: "Owls", delta: 3, reason: "warm-up")
        await client.transport.close()
        #expect(await daemon.terminate() == .exited(0))

        try disk.fill()
        #expect(disk.availableBlocks() == 0)

        // It starts, and serves the saved game (paused by the restart, in memory only).
        let fullStart = daemon.log().count
        try await daemon.start()
        client = DaemonProcess.GameClient(try await daemon.connect())
        var status = try await client.status()
        #expect(status.scores == saved.scores)
        #expect(status.question == saved.question)
        #expect(status.paused)
        #expect(daemon.log().contains("serving the saved game read-only"), "\(daemon.log())")

        // A change is refused with StorageFailed naming the full disk, and nothing changes.
        await expectStorageFailed { _ = try await client.adjustScore(team: "Owls", delta: 1, reason: "full") }
        await expectStorageFailed { _ = try await client.resume() }
        #expect(try await client.status().scores == saved.scores)
        await client.transport.close()

        // Stopped while still full: the log says the game could not be saved, never that it is.
        #expect(await daemon.terminate() == .exited(0))
        var log = String(daemon.log().dropFirst(fullStart))
        #expect(log.contains("stopped; the game could not be saved"), "\(log)")
        #expect(!log.contains("the game is saved"), "\(log)")
        #expect(!log.contains("saving works again"), "\(log)")

        // Started full again, then space comes back: the next change is saved, and the log says so once.
        let recoveryStart = daemon.log().count
        try await daemon.start()
        client = DaemonProcess.GameClient(try await daemon.connect())
        await expectStorageFailed { _ = try await client.adjustScore(team: "Owls", delta: 1, reason: "still full") }
        disk.free()
        status = try await client.adjustScore(team: "Owls", delta: 1, reason: "room again")
        #expect(status.scores["Owls"] == (saved.scores["Owls"] ?? 0) + 1)
        _ = try await client.resume()
        await client.transport.close()
        #expect(await daemon.terminate() == .exited(0))
        log = String(daemon.log().dropFirst(recoveryStart))
        #expect(log.components(separatedBy: "saving works again").count == 2, "\(log)")
        #expect(log.contains("stopped; the game is saved"), "\(log)")

        // What was saved after the recovery is there after a restart.
        try await daemon.start()
        client = DaemonProcess.GameClient(try await daemon.connect())
        #expect(try await client.status().scores["Owls"] == (saved.scores["Owls"] ?? 0) + 1)
        await client.transport.close()
    }

    private func expectStorageFailed(
        _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await body()
            Issue.record("the change was accepted on a full disk", sourceLocation: sourceLocation)
        } catch let error as VarlinkError {
            #expect(error.remoteName == "io.shakywords.Game.StorageFailed", sourceLocation: sourceLocation)
            #expect("\(error)".contains("is full"), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}

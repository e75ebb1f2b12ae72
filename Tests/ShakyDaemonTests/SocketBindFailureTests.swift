import Foundation
import ShakyTesting
import Testing

/// A daemon that cannot serve its socket stops what it started before it exits.
@Suite struct SocketBindFailureTests {
    @Test("A socket that cannot be bound: the daemon says why and closes the database cleanly on its way out")
    func aSocketThatCannotBeBoundClosesTheDatabase() async throws {
        let folder = try TemporaryDirectory(prefix: "shakyd-bind")
        defer { folder.remove() }
        // A regular file where the socket's folder should be: binding fails after the database is open.
        let blocker = folder.appending("not-a-folder")
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let daemon = try DaemonProcess(arguments: ["--socket", blocker + "/shaky.sock"])
        try await daemon.withCleanup {
            await #expect(throws: (any Error).self) { try await daemon.start(readyWithin: .seconds(20)) }
            let log = daemon.log()
            #expect(log.contains("not-a-folder"), "\(log)")
            #expect(log.contains("stopped; there is no game to save"), "\(log)")
            // Closed: the write-ahead log was folded into the file and removed, as at every clean stop.
            #expect(FileManager.default.fileExists(atPath: daemon.databasePath))
            #expect(!FileManager.default.fileExists(atPath: daemon.databasePath + "-wal"))
        }
    }
}

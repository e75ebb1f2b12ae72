import Foundation
import ShakyTesting
import Testing

/// A daemon that cannot serve its socket says why before it starts anything.
@Suite struct SocketBindFailureTests {
    @Test("A socket that cannot be made: the daemon says why, and opens no database first")
    func aSocketThatCannotBeMadeOpensNoDatabase() async throws {
        let folder = try TemporaryDirectory(prefix: "shakyd-bind")
        defer { folder.remove() }
        // A regular file where the socket's folder should be.
        let blocker = folder.appending("not-a-folder")
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let daemon = try DaemonProcess(arguments: ["--socket", blocker + "/shaky.sock"])
        try await daemon.withCleanup {
            await #expect(throws: (any Error).self) { try await daemon.start(readyWithin: .seconds(20)) }
            let log = daemon.log()
            #expect(log.contains("not-a-folder") && log.contains("a file is in the way"), "\(log)")
            // Checked before anything started: nothing to stop, no database made.
            #expect(!log.contains("stopped"), "\(log)")
            #expect(!FileManager.default.fileExists(atPath: daemon.databasePath))
        }
    }
}

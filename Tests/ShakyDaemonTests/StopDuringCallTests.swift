import Foundation
import GRDB
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The real `shakyd` stopped (SIGTERM) while `shaky pack import` runs: the import gets its reply before the daemon
/// goes, so the host knows whether the pack is there.
@Suite("Stopping with a call running")
struct StopDuringCallTests {
    /// A pack file too large for one message: `shaky pack import` uploads it in parts and then imports it with
    /// `ImportUpload`, as a host's big spreadsheet goes.
    static func writeLargePack(to path: String, questions: Int) throws {
        var text = "question,answer,difficulty\n"
        for number in 1...questions {
            text += "Which word stands at number \(number) in this long list of practice words?,Word\(number),easy\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Polls `condition` every few milliseconds until it holds; records an issue after 30 s.
    static func waitUntil(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async throws {
        let patience = ContinuousClock.now + .seconds(30)
        while !condition(), ContinuousClock.now < patience { try await Task.sleep(for: .milliseconds(5)) }
        try #require(condition(), "waited 30 s for \(what)", sourceLocation: sourceLocation)
    }

    @Test(
        "SIGTERM during a large pack import: STOPPING=1 at once, no new client, watchers let go, the import replies, exit 0"
    )
    func importRunningRepliesBeforeTheDaemonStops() async throws {
        let notifications = try NotifySocket(path: "/tmp/shakyd-stop-\(UUID().uuidString.prefix(8)).notify")
        try await DaemonProcess.withRunning(
            arguments: ["--log-level", "trace"], environment: ["NOTIFY_SOCKET": notifications.path]
        ) { daemon in
            let file = daemon.folder.appendingPathComponent("Big Quiz.csv").path
            try Self.writeLargePack(to: file, questions: 14_000)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(size > VarlinkFrameDecoder.defaultMaximumFrameLength, "sent in parts")

            let idle = try RawSocket(path: daemon.socketPath)
            #expect(await idle.send(#"{"method":"org.varlink.service.GetInfo"}"#))
            #expect(try await idle.readReply().error == nil)
            let watcher = try RawSocket(path: daemon.socketPath)
            #expect(await watcher.send(#"{"method":"io.shakywords.Game.Watch","more":true}"#))
            #expect(try await watcher.readReply().continues)

            // Another writer holds the database, so the import, once running, waits for it (SQLite waits up to 5 s)
            // until this test lets go: a call that is surely running when SIGTERM comes, without a sleep.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let otherWriter = try DatabaseQueue(path: daemon.databasePath, configuration: configuration)
            try otherWriter.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
            let importing = try ChildProcess(
                try BuiltProduct.path("shaky"), ["pack", "import", file],
                environment: ["SHAKY_SOCKET": daemon.socketPath])
            try await Self.waitUntil("the import to start") {
                daemon.log().contains("call to io.shakywords.Packs.ImportUpload")
            }

            let processID = try #require(daemon.processID)
            kill(processID, SIGTERM)
            try await Self.waitUntil("the drain to begin") {
                daemon.log().contains(
                    "stopping: waiting up to 10.0 seconds for the calls running to reply: io.shakywords.Packs.ImportUpload ("
                )
            }
            var notified: [String] = []
            while !notified.contains("STOPPING=1"), let message = await notifications.receive(within: .seconds(10)) {
                notified.append(message)
            }
            #expect(notified.contains("STOPPING=1"), "systemd hears of the stop before the calls running end")
            #expect(await idle.readUntilClosed() == .success([]), "an idle connection is closed at once")
            guard case .success = await watcher.readUntilClosed() else {
                Issue.record("the watch was not ended")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
            await #expect(throws: (any Error).self, "a new client is refused") {
                try await VarlinkClient.connect(unixSocketPath: daemon.socketPath)
            }
            #expect(importing.exit == nil, "the import still waits for the database")

            try otherWriter.inDatabase { try $0.execute(sql: "ROLLBACK") }
            try otherWriter.close()
            let imported = try await importing.waitForExit(within: .seconds(60))
            #expect(imported == .exited(0), "\(importing.standardError)")
            #expect(
                importing.standardOutput.hasPrefix("Imported Big Quiz: 14000 questions"), "\(importing.standardOutput)")
            let exit = await daemon.terminate()
            #expect(exit == .exited(0), "\(daemon.log())")
            let log = daemon.log()
            #expect(!log.contains("cut off"), "\(log)")
            let drained = try #require(log.range(of: "stopping: waiting up to"))
            let saved = try #require(log.range(of: "stopped; there is no game to save"))
            #expect(drained.upperBound < saved.lowerBound, "the database stays open until the call has replied")

            try await daemon.start()
            let client = try await daemon.connect()
            let packs = try await ShakyAPI.PacksInterface.Client(client).list()
            await client.close()
            #expect(packs.first { $0.name == "Big Quiz" }?.questions == 14_000)
        }
    }
}

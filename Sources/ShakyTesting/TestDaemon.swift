import Foundation
import Logging
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import Varlink

/// Runs a test body against a real ``Daemon``, either in-process or over a real Unix socket.
///
/// The same body runs both ways, so a test proves the command handler and the socket path alike:
/// ```swift
/// @Test(arguments: TestDaemon.Mode.allCases)
/// func status(mode: TestDaemon.Mode) async throws {
///     try await TestDaemon.run(mode) { client in
///         let info = try await client.call("org.varlink.service.GetInfo")
///         …
///     }
/// }
/// ```
/// The daemon runs on a fresh state directory (or the one given) with no sensor (`input: none`), no sound device
/// (a ``RecordingSoundPlayer`` instead), a ``ManualClock`` and, unless told otherwise, an access policy that lets
/// everyone in.
public enum TestDaemon {
    /// How the test body reaches the daemon.
    public enum Mode: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Calls go straight to `service.handle(_:from:send:)`, as the socket would make them.
        case inProcess
        /// Calls go through a ``VarlinkServer`` on a Unix socket in a temporary directory, with ``VarlinkClient``.
        case socket

        public var description: String { rawValue }
    }

    /// Starts a daemon, runs `body` with a client of it, then stops the daemon (saving its game).
    ///
    /// - Parameters:
    ///   - stateDirectory: the database's folder; a fresh temporary one (removed afterwards) when `nil`. Pass the
    ///     same folder to two runs to restart a daemon on its saved state.
    ///   - accessPolicy: who may call what; everyone may call everything by default.
    ///   - peer: who the in-process calls come from (over the socket the kernel says who it is).
    ///   - soundPlayer: the player the daemon's cues and sound settings go to.
    ///   - replyBacklog: the socket's backlog of unread replies, for a test that watches it.
    public static func run<Result>(
        _ mode: Mode, stateDirectory: String? = nil,
        accessPolicy: any VarlinkAccessPolicy = AllowEveryoneAccessPolicy(),
        peer: VarlinkPeerCredentials = .currentProcess, soundPlayer: RecordingSoundPlayer = RecordingSoundPlayer(),
        replyBacklog: VarlinkReplyBacklog = VarlinkReplyBacklog(),
        _ body: (TestDaemonClient) async throws -> Result
    ) async throws -> Result {
        let directory = try TemporaryDirectory(prefix: "shakyd-test")
        defer { directory.remove() }
        let clock = ManualClock()
        let configuration = DaemonConfiguration(
            resolving: DaemonOptions(
                socket: directory.appending("run/shaky.sock"),
                stateDirectory: stateDirectory ?? directory.appending("state"), input: "none", soundDevice: "none",
                buzzers: "none"))
        let logger = Logger(label: "shakyd-test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = try await startOnceOwnLockIsGone {
            try await Daemon.start(
                configuration: configuration, clock: clock, accessPolicy: accessPolicy, soundPlayer: soundPlayer,
                logger: logger)
        }
        var server: VarlinkServer?
        var serverTask: Task<Void, any Error>?
        var connection: VarlinkClient?
        let result: Swift.Result<Result, any Error>
        do {
            if mode == .socket {
                let bound = try await VarlinkServer.bind(
                    to: .unixSocket(path: configuration.socketPath), service: daemon.service, socketGroup: nil,
                    replyBacklog: replyBacklog, logger: logger)
                server = bound
                serverTask = Task { try await bound.run() }
                connection = try await VarlinkClient.connect(unixSocketPath: configuration.socketPath)
            }
            let client = TestDaemonClient(
                mode: mode, daemon: daemon, clock: clock, soundPlayer: soundPlayer, peer: peer,
                socketPath: configuration.socketPath, connection: connection)
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        await connection?.close()
        if server != nil, let serverTask {
            serverTask.cancel()
            _ = try? await serverTask.value
        }
        await daemon.shutDown()
        return try result.get()
    }

    /// Runs `start`, again while the state folder's lock is held by this process: a daemon of an earlier run on the
    /// same folder has released it, but a child that another test started at that moment may still hold a copy of
    /// its descriptor (a child holds every descriptor until its `exec` closes those marked close-on-exec, and on a
    /// busy disk loading the program takes long), and the lock goes with the last copy. Gives up after 10 s.
    public static func startOnceOwnLockIsGone(_ start: () async throws -> Daemon) async throws -> Daemon {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try await start()
            } catch let error as StateDirectoryLockError where error.holder == getpid() {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}

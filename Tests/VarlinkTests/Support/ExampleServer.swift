import Foundation
import Logging
import Varlink

/// A running example server on a Unix socket in a fresh temporary directory.
struct ExampleServer {
    let directory: String
    let socketPath: String
    let probe: ExampleProbe
    /// The server itself, for a test that stops it (``VarlinkServer/shutDownGracefully()``).
    let server: VarlinkServer
    /// The task running ``VarlinkServer/run()``: it ends when the server has stopped.
    let serving: Task<Void, any Error>

    var address: String { "unix:\(socketPath)" }

    /// Runs `body` against a server serving `org.shakywords.Example`; stops the server and removes the directory after.
    static func run<Result>(
        accessPolicy: any VarlinkAccessPolicy = AllowEveryoneAccessPolicy(), socketGroup: String? = nil,
        limits: VarlinkServer.ConnectionLimits = VarlinkServer.ConnectionLimits(),
        replyBacklog: VarlinkReplyBacklog = VarlinkReplyBacklog(),
        idleTimeout: Duration? = VarlinkServer.defaultIdleTimeout,
        drainTimeout: Duration = VarlinkServer.defaultDrainTimeout, clock: (any Clock<Duration>)? = nil,
        logger: Logger = Logger(label: "varlink.server"),
        _ body: (ExampleServer) async throws -> Result
    ) async throws -> Result {
        let directory = try temporaryDirectory()
        let socketPath = directory + "/run/example.sock"
        let probe = ExampleProbe()
        let service = try VarlinkService(
            vendor: "Shaky Words", product: "shaky-protocol-tests", version: "1.0", url: "https://shakywords.invalid",
            interfaces: [try ExampleInterface.make(probe: probe)], accessPolicy: accessPolicy)
        let server = try await VarlinkServer.bind(
            to: .unixSocket(path: socketPath), service: service, socketGroup: socketGroup, limits: limits,
            replyBacklog: replyBacklog, idleTimeout: idleTimeout, drainTimeout: drainTimeout, clock: clock,
            logger: logger)
        let task = Task { try await server.run() }
        let handle = ExampleServer(
            directory: directory, socketPath: socketPath, probe: probe, server: server, serving: task)
        do {
            let result = try await body(handle)
            task.cancel()
            try await task.value
            try? FileManager.default.removeItem(atPath: directory)
            return result
        } catch {
            task.cancel()
            _ = try? await task.value
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// A new empty directory under the system's temporary directory, short enough for socket paths.
    static func temporaryDirectory() throws -> String {
        let path = "/tmp/shaky-varlink-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

import Foundation
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("Varlink server sockets and the Swift client")
struct VarlinkServerTests {
    static func exampleService(probe: ExampleProbe = ExampleProbe()) throws -> VarlinkService {
        try VarlinkService(
            vendor: "Shaky Words", product: "shaky-protocol-tests", version: "1.0", url: "https://shakywords.invalid",
            interfaces: [try ExampleInterface.make(probe: probe)])
    }

    @Test("The Swift client calls, streams, gets typed errors and sends oneway calls")
    func client() async throws {
        try await ExampleServer.run { server in
            let client = try await VarlinkClient.connect(unixSocketPath: server.socketPath)
            let info = try await client.call("org.varlink.service.GetInfo")
            #expect(info["interfaces"] == ["org.varlink.service", "org.shakywords.Example"])
            #expect(info["vendor"] == "Shaky Words")

            let reply = try await client.call(
                "org.shakywords.Example.Check", ExampleInterface.CheckParameters(value: 2, limit: 5),
                as: ExampleInterface.CheckReply.self)
            #expect(reply == ExampleInterface.CheckReply(value: 2))

            await #expect(
                throws: VarlinkError.remote(
                    name: "org.shakywords.Example.TooLarge", parameters: ["value": 9, "limit": 5])
            ) {
                try await client.call("org.shakywords.Example.Check", parameters: ["value": 9, "limit": 5])
            }

            var values: [Int] = []
            for try await reply in client.callMore("org.shakywords.Example.Count", parameters: ["to": 3]) {
                values.append(reply["value"]?.intValue ?? -1)
            }
            #expect(values == [1, 2, 3])

            await #expect(throws: VarlinkError.remote(name: "org.varlink.service.ExpectedMore", parameters: [:])) {
                try await client.call("org.shakywords.Example.Count", parameters: ["to": 3])
            }

            try await client.oneway("org.shakywords.Example.Reset")
            // Concurrent calls are pipelined and each gets its own reply.
            async let first = client.call("org.shakywords.Example.Hello", parameters: ["name": "A"])
            async let second = client.call("org.shakywords.Example.Hello", parameters: ["name": "B"])
            #expect(try await [first["greeting"], second["greeting"]] == ["Hello, A!", "Hello, B!"])
            await client.close()
            await #expect(throws: VarlinkError.connectionClosed) {
                try await client.call("org.varlink.service.GetInfo")
            }
            server.probe.finish()
            #expect(await server.probe.resetCount() == 1)
        }
    }

    @Test("Abandoning a stream closes the client's connection, so the server drops the watcher")
    func abandonedStream() async throws {
        try await ExampleServer.run { server in
            let client = try await VarlinkClient.connect(unixSocketPath: server.socketPath)
            for try await reply in client.callMore("org.shakywords.Example.Follow") {
                #expect(reply == ["value": 1])
                break
            }
            #expect(await server.probe.nextHangup() == "Follow")
        }
    }

    @Test("Connecting where nothing listens says which path failed")
    func connectionFailed() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/absent.sock"
        do {
            _ = try await VarlinkClient.connect(unixSocketPath: path)
            Issue.record("connected to \(path)")
        } catch {
            guard case .connectionFailed(let failedPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedPath == path)
        }
    }

    @Test("The socket file gets mode 0660 and the socket group, and is removed when the server stops")
    func socketFileMode() async throws {
        // A stand-in for `shaky` that this process may give files to: as root `daemon` (every Debian
        // system has it, and it differs from root's group), otherwise the process's own group.
        let groupName =
            geteuid() == 0 ? "daemon" : try #require(String(validatingCString: getgrgid(getegid()).pointee.gr_name))
        let groupID = try #require(UserDatabase.groupID(named: groupName))
        let path = try await ExampleServer.run(socketGroup: groupName) { server in
            var status = stat()
            #expect(stat(server.socketPath, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o660)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            #expect(status.st_gid == groupID)
            return server.socketPath
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A Unix stream socket bound at `path`, not listening yet.
    static func boundSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8 + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
        return descriptor
    }

    @Test("A stale socket file is replaced; a live one or a non-socket is left alone")
    func staleSocketFile() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/x.sock"
        let service = try Self.exampleService()

        // A socket file nobody listens on: what a crashed server leaves behind.
        close(try Self.boundSocket(at: path))

        let server = try await VarlinkServer.bind(to: .unixSocket(path: path), service: service, socketGroup: nil)
        let task = Task { try await server.run() }
        let client = try await VarlinkClient.connect(unixSocketPath: path)
        #expect(try await client.call("org.varlink.service.GetInfo")["product"] == "shaky-protocol-tests")

        await #expect(throws: VarlinkSocketPathError(path: path, reason: "another server is listening there")) {
            _ = try await VarlinkServer.bind(to: .unixSocket(path: path), service: service, socketGroup: nil)
        }
        task.cancel()
        try await task.value

        let file = directory + "/not-a-socket"
        _ = FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8))
        await #expect(throws: VarlinkSocketPathError.self) {
            _ = try await VarlinkServer.bind(to: .unixSocket(path: file), service: service, socketGroup: nil)
        }
        #expect(FileManager.default.contents(atPath: file) == Data("keep me".utf8))
    }

    @Test("A socket that cannot be bound is refused in words that name the path, not in NIO's own")
    func bindFailureInWords() async throws {
        let service = try Self.exampleService()
        // /proc takes no new files: the kernel refuses the bind itself, after the folder checks passed.
        let refused = await #expect(throws: VarlinkSocketPathError.self) {
            _ = try await VarlinkServer.bind(to: .unixSocket(path: "/proc/shaky-test.sock"), service: service)
        }
        #expect(refused?.path == "/proc/shaky-test.sock")
        #expect(refused.map { !$0.reason.contains("bind(") && !$0.reason.contains("errno") } == true)
    }

    @Test("A socket path longer than the kernel takes is refused in words, before anything is made")
    func socketPathTooLong() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/" + String(repeating: "d", count: 120)
        let path = folder + "/x.sock"
        await #expect(
            throws: VarlinkSocketPathError(
                path: path,
                reason: "the path is \(path.utf8.count) bytes long, and a socket's path can have at most 107: "
                    + "choose a shorter one")
        ) {
            _ = try await VarlinkServer.bind(to: .unixSocket(path: path), service: try Self.exampleService())
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("A server runs on an already listening socket, as systemd passes it")
    func inheritedSocket() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/activated.sock"
        let listener = try Self.boundSocket(at: path)
        #expect(listen(listener, 16) == 0)

        let server = try await VarlinkServer.bind(to: .inheritedSocket(listener), service: try Self.exampleService())
        let task = Task { try await server.run() }
        let client = try await VarlinkClient.connect(unixSocketPath: path)
        #expect(
            try await client.call("org.shakywords.Example.Hello", parameters: ["name": "systemd"]) == [
                "greeting": "Hello, systemd!"
            ])
        await client.close()
        task.cancel()
        try await task.value
    }

    @Test("A socket that accepts but never answers (systemd's, for a service that fails to start): the call gives up")
    func noReplyGivesUp() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/held.sock"
        let listener = try Self.boundSocket(at: path)
        defer { close(listener) }
        #expect(listen(listener, 16) == 0)  // nothing ever accepts: the connection waits in the backlog

        let client = try await VarlinkClient.connect(unixSocketPath: path, replyTimeout: .milliseconds(200))
        let error = await #expect(throws: VarlinkError.self) {
            _ = try await client.call("org.shakywords.Example.Hello", parameters: ["name": "nobody"])
        }
        guard case .noReply(let timeout)? = error else {
            Issue.record("expected noReply, got \(String(describing: error))")
            return
        }
        #expect(timeout == .milliseconds(200))
        #expect(!client.isOpen, "the connection is closed: Varlink cannot cancel one call")
    }

    @Test("A server that goes away with the call unread (a daemon stopping) closed the connection; no protocol broke")
    func aResetConnectionIsClosed() async throws {
        let directory = try ExampleServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/reset.sock"
        let listener = try Self.boundSocket(at: path)
        defer { close(listener) }
        #expect(listen(listener, 16) == 0)

        let client = try await VarlinkClient.connect(unixSocketPath: path, replyTimeout: .seconds(30))
        let reply = Task { try await client.call("org.shakywords.Example.Hello", parameters: ["name": "late"]) }
        let accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        // Waits for the call without holding one of the few threads the client's task needs to send it.
        var waiting = pollfd(fd: accepted, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(20)
        while poll(&waiting, 1, 0) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(waiting.revents & Int16(POLLIN) != 0, "the call arrives")
        close(accepted)  // unread: the client's next read fails with ECONNRESET
        await #expect(throws: VarlinkError.connectionClosed) { _ = try await reply.value }
    }

    @Test("Replies within the timeout are taken, calls pipelined or one after the other")
    func repliesWithinTheTimeout() async throws {
        try await ExampleServer.run { server in
            let client = try await VarlinkClient.connect(unixSocketPath: server.socketPath, replyTimeout: .seconds(30))
            for name in ["a", "b"] {
                #expect(
                    try await client.call("org.shakywords.Example.Hello", parameters: ["name": .string(name)]) == [
                        "greeting": .string("Hello, \(name)!")
                    ])
            }
            async let first = client.call("org.shakywords.Example.Hello", parameters: ["name": "c"])
            async let second = client.call("org.shakywords.Example.Hello", parameters: ["name": "d"])
            #expect(try await [first, second] == [["greeting": "Hello, c!"], ["greeting": "Hello, d!"]])
            #expect(client.isOpen)
            await client.close()
        }
    }

    @Test("In-process dispatch gives the same replies as the socket, with the caller's credentials")
    func inProcess() async throws {
        let service = try Self.exampleService()
        var replies: [VarlinkReply] = []
        try await service.handle(
            VarlinkCall(method: "org.shakywords.Example.Count", parameters: ["to": 2], more: true),
            from: .currentProcess
        ) { replies.append($0) }
        try await service.handle(VarlinkCall(method: "org.shakywords.Example.Hello"), from: .currentProcess) {
            replies.append($0)
        }
        #expect(
            replies == [
                VarlinkReply(parameters: ["value": 1], continues: true), VarlinkReply(parameters: ["value": 2]),
                .error("org.varlink.service.InvalidParameter", parameters: ["parameter": "name"]),
            ])
    }
}

extension VarlinkError: Equatable {
    public static func == (lhs: VarlinkError, rhs: VarlinkError) -> Bool {
        switch (lhs, rhs) {
        case (.remote(let a, let x), .remote(let b, let y)): a == b && x == y
        case (.connectionClosed, .connectionClosed): true
        case (.protocolViolation(let a), .protocolViolation(let b)): a == b
        case (.connectionFailed(let a, _), .connectionFailed(let b, _)): a == b
        default: false
        }
    }
}

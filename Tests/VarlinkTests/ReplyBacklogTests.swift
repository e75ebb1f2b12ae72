import ShakyTesting
import Synchronization
import Testing
import Varlink

/// Replies that clients do not read cannot pile up in memory: past the backlog's bound a large reply waits for them
/// to read, while small replies go on.
@Suite("Reply backlog")
struct ReplyBacklogTests {
    static func large(_ size: Int) -> String {
        #"{"method":"org.shakywords.Example.Large","parameters":{"size":\#(size)}}"#
    }

    @Test("A large reply waits while unread replies are over the bound, small calls go on, and reading lets it go")
    func largeRepliesWaitForReaders() async throws {
        let backlog = VarlinkReplyBacklog(bound: 256 << 10)
        try await ExampleServer.run(replyBacklog: backlog) { server in
            let slow = try RawSocket(path: server.socketPath)
            #expect(await slow.send(Self.large(2 << 20)))
            try await waitUntil("the unread reply is counted") { backlog.pending >= 1 << 20 }

            let waiting = try RawSocket(path: server.socketPath)
            #expect(await waiting.send(Self.large(10)))
            try await waitUntil("the large call waits") { backlog.waiting == 1 }

            let small = try RawSocket(path: server.socketPath)
            #expect(await small.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"A"}}"#))
            #expect(try await small.readReply().parameters["greeting"] == "Hello, A!")

            guard case .success(let frame) = await slow.readFrame() else {
                Issue.record("the slow client's reply did not come")
                return
            }
            #expect(frame.count > 2 << 20)
            #expect(try await waiting.readReply().parameters["text"] == .string(String(repeating: "a", count: 10)))
            #expect(backlog.waiting == 0)
        }
    }

    @Test("Calls that find room make their large replies one at a time, so that they cannot all make them at once")
    func oneLargeReplyAtATime() async throws {
        let backlog = VarlinkReplyBacklog(bound: 256 << 10)
        try await ExampleServer.run(replyBacklog: backlog) { server in
            var sockets: [RawSocket] = []
            for _ in 0..<4 {
                let socket = try RawSocket(path: server.socketPath)
                #expect(await socket.send(Self.large(1 << 20)))
                sockets.append(socket)
            }
            for left in (0..<4).reversed() {
                // Made means written: then its connection has it to read.
                try await waitUntil("\(left) wait, one reply is made") {
                    backlog.waiting == left && backlog.pending > 256 << 10
                }
                #expect(backlog.pending <= 1 << 20 + 1024, "one reply at a time")
                // The one with its reply reads it; the next is then made.
                let readable = RawSocket.readable(sockets)
                guard let reader = readable.first, readable.count == 1 else {
                    Issue.record("\(readable.count) connections have a reply, not one")
                    return
                }
                guard case .success(let frame) = await reader.readFrame() else {
                    Issue.record("the reply did not come whole")
                    return
                }
                #expect(frame.count > 1 << 20)
                sockets.removeAll { $0 === reader }
            }
        }
    }

    @Test("A oneway call of a large-reply method, which gets no reply, does not keep the next one waiting")
    func aOnewayCallDoesNotHoldTheTurn() async throws {
        let backlog = VarlinkReplyBacklog(bound: 256 << 10)
        let method = VarlinkMethod.typed(VarlinkEmptyParameters.self, largeReply: true) { _, _ in
            ["text": String(repeating: "a", count: 10)]
        }
        let service = try VarlinkService(
            vendor: "v", product: "p", version: "1", url: "u",
            interfaces: [
                try VarlinkInterface(
                    description: "interface org.example.Big\n\nmethod Get() -> (text: string)\n",
                    methods: ["Get": method])
            ])
        let directory = try ExampleServer.temporaryDirectory()
        let path = directory + "/big.sock"
        let server = try await VarlinkServer.bind(to: .unixSocket(path: path), service: service, replyBacklog: backlog)
        let serving = Task { try await server.run() }
        defer { serving.cancel() }
        let oneway = try RawSocket(path: path)
        #expect(await oneway.send(#"{"method":"org.example.Big.Get","oneway":true}"#))
        let next = try RawSocket(path: path)
        #expect(await next.send(#"{"method":"org.example.Big.Get"}"#))
        #expect(try await next.readReply().parameters["text"] == .string(String(repeating: "a", count: 10)))
    }

    @Test("Once a large reply is made and sent, the backlog says so (a daemon then gives back freed memory)")
    func aLargeReplyWrittenIsAnnounced() async throws {
        let announced = Mutex(0)
        let backlog = VarlinkReplyBacklog(bound: 256 << 10) { announced.withLock { $0 += 1 } }
        try await ExampleServer.run(replyBacklog: backlog) { server in
            let reader = try RawSocket(path: server.socketPath)
            #expect(await reader.send(Self.large(10)))
            #expect(try await reader.readReply().parameters["text"] == .string(String(repeating: "a", count: 10)))
            #expect(await reader.send(#"{"method":"org.shakywords.Example.Hello","parameters":{"name":"A"}}"#))
            _ = try await reader.readReply()
            #expect(announced.withLock { $0 } == 1, "the large reply only")
        }
    }

    @Test("A caller that hangs up while its large reply waits stops waiting")
    func aWaitingCallerHangsUp() async throws {
        let backlog = VarlinkReplyBacklog(bound: 256 << 10)
        try await ExampleServer.run(replyBacklog: backlog) { server in
            let slow = try RawSocket(path: server.socketPath)
            #expect(await slow.send(Self.large(2 << 20)))
            try await waitUntil("the unread reply is counted") { backlog.pending >= 1 << 20 }
            let leaving = try RawSocket(path: server.socketPath)
            #expect(await leaving.send(Self.large(10)))
            try await waitUntil("the large call waits") { backlog.waiting == 1 }
            leaving.hangUp()
            try await waitUntil("the caller that hung up stops waiting") { backlog.waiting == 0 }
            slow.hangUp()
            try await waitUntil("a closed connection's replies are given back") { backlog.pending == 0 }
        }
    }
}

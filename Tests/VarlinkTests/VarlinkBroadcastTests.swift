import Foundation
import ShakyTesting
import Synchronization
import Testing
import Varlink

/// ``VarlinkBroadcast``: the same replies to many `more` calls, written straight to their connections.
@Suite("Varlink broadcast to many streaming calls")
struct VarlinkBroadcastTests {
    @Test("Each subscriber gets its first reply, then every reply in order, over a socket and in-process")
    func order() async throws {
        try await BroadcastServer.run(backlogLimit: 256) { server in
            let clients = try await server.connect(4)
            var listeners = clients.map { $0.callMore(BroadcastServer.listen).makeAsyncIterator() }
            for index in listeners.indices {
                #expect(try await listeners[index].next()?["number"] == 0)
            }
            let inProcess = server.callInProcess()
            var inProcessReplies = inProcess.replies.makeAsyncIterator()
            #expect(try await inProcessReplies.next()?["number"] == 0)
            #expect(server.broadcast.count == 5)

            for number in 1...200 { server.broadcast.send(BroadcastServer.reply(number)) }
            for index in listeners.indices {
                var numbers: [Int] = []
                for _ in 1...200 { numbers.append(try await listeners[index].next()?["number"]?.intValue ?? -1) }
                #expect(numbers == Array(1...200), "subscriber \(index)")
            }
            var numbers: [Int] = []
            for _ in 1...200 { numbers.append(try await inProcessReplies.next()?["number"]?.intValue ?? -1) }
            #expect(numbers == Array(1...200))
            inProcess.hangUp()
            for client in clients { await client.close() }
        }
    }

    @Test("A subscriber that joins late hears its first reply, then only what is sent after it joined")
    func lateJoiner() async throws {
        try await BroadcastServer.run(backlogLimit: 256) { server in
            let early = try await server.connect(1)[0]
            var earlyReplies = early.callMore(BroadcastServer.listen).makeAsyncIterator()
            #expect(try await earlyReplies.next()?["number"] == 0)
            server.broadcast.send(BroadcastServer.reply(1))
            let late = try await server.connect(1)[0]
            var lateReplies = late.callMore(BroadcastServer.listen).makeAsyncIterator()
            #expect(try await lateReplies.next()?["number"] == 0)
            server.broadcast.send(BroadcastServer.reply(2))
            #expect(try await earlyReplies.next()?["number"] == 1)
            #expect(try await earlyReplies.next()?["number"] == 2)
            #expect(try await lateReplies.next()?["number"] == 2)
            await early.close()
            await late.close()
        }
    }

    @Test("A client that stops reading is dropped at its backlog's limit, the others get every reply; no call failed")
    func backlogLimit() async throws {
        let backlogLimit = 4
        let log = LogRecorder()
        try await BroadcastServer.run(backlogLimit: backlogLimit, log: log) { server in
            let reader = try await server.connect(1)[0]
            var replies = reader.callMore(BroadcastServer.listen).makeAsyncIterator()
            #expect(try await replies.next()?["number"] == 0)
            let stalled = try RawSocket(path: server.socketPath)
            #expect(await stalled.send(#"{"method":"\#(BroadcastServer.listen)","more":true}"#))
            try await server.waitForSubscribers(2)

            // Replies of 64 KiB: a few fill the stalled client's socket, then its backlog.
            var sent = 0
            while server.departures.value.isEmpty, sent < 1_000 {
                sent += 1
                server.broadcast.send(BroadcastServer.reply(sent, padding: 64 * 1024))
                #expect(try await replies.next()?["number"]?.intValue == sent)
            }
            #expect(server.departures.value == [.fellBehind])
            // Not before `backlogLimit` replies were waiting beyond what the socket holds.
            #expect(sent > backlogLimit)
            #expect(server.broadcast.count == 1)
            if case .failure(let end) = await stalled.readUntilClosed() {
                Issue.record("the stalled client's connection stayed open: \(end.end)")
            }
            server.broadcast.send(BroadcastServer.reply(sent + 1))
            #expect(try await replies.next()?["number"]?.intValue == sent + 1)
            await reader.close()
        }
        #expect(log.messages.withLock { $0 } == [])
    }

    @Test("An in-process caller that does not read is dropped at the backlog limit, its stream ending with Overflow")
    func inProcessBacklogLimit() async throws {
        let broadcast = VarlinkBroadcast(backlogLimit: 3)
        let departures = Departures()
        let replies = broadcast.subscribe(nil, first: BroadcastServer.reply(0)) { departures.append($0) }
        // The first reply and two more fill the backlog; the next one overflows it.
        broadcast.send(BroadcastServer.reply(1))
        broadcast.send(BroadcastServer.reply(2))
        #expect(departures.value.isEmpty)
        #expect(broadcast.count == 1)
        broadcast.send(BroadcastServer.reply(3))
        #expect(departures.value == [.fellBehind])
        #expect(broadcast.count == 0)
        var numbers: [Int] = []
        do {
            for try await reply in replies { numbers.append(reply.parameters["number"]?.intValue ?? -1) }
            Issue.record("the stream ended without an error")
        } catch {
            #expect(error is VarlinkBroadcast.Overflow, "\(error)")
        }
        #expect(numbers == [0, 1, 2])
    }

    @Test("A client that hangs up leaves the broadcast once, and the others go on")
    func hangUp() async throws {
        try await BroadcastServer.run(backlogLimit: 256) { server in
            let clients = try await server.connect(3)
            var listeners = clients.map { $0.callMore(BroadcastServer.listen).makeAsyncIterator() }
            for index in listeners.indices {
                #expect(try await listeners[index].next()?["number"] == 0)
            }
            await clients[0].close()
            try await server.waitForSubscribers(2)
            #expect(server.departures.value == [.hungUp])
            let inProcess = server.callInProcess()
            try await server.waitForSubscribers(3)
            inProcess.hangUp()
            try await server.waitForSubscribers(2)
            #expect(server.departures.value == [.hungUp, .hungUp])
            server.broadcast.send(BroadcastServer.reply(1))
            for index in 1..<3 { #expect(try await listeners[index].next()?["number"] == 1) }
            for client in clients.dropFirst() { await client.close() }
            try await server.waitForSubscribers(0)
            #expect(server.departures.value.count == 4)
        }
    }
}

/// A server whose one method, `Listen`, subscribes its caller to a broadcast; its first reply is number 0.
private struct BroadcastServer {
    static let interfaceName = "org.shakywords.BroadcastTest"
    static let listen = "\(interfaceName).Listen"
    static let description = """
        interface org.shakywords.BroadcastTest

        # Number 0, then every number the test sends.
        method Listen() -> (number: int, padding: string)
        """

    let broadcast: VarlinkBroadcast
    let departures: Departures
    let service: VarlinkService
    let socketPath: String

    static func run(
        backlogLimit: Int, log: LogRecorder = LogRecorder(), _ body: (BroadcastServer) async throws -> Void
    ) async throws {
        let broadcast = VarlinkBroadcast(backlogLimit: backlogLimit)
        let departures = Departures()
        let interface = try VarlinkInterface(
            description: description,
            methods: [
                "Listen": .stream { request in
                    broadcast.subscribe(request, first: reply(0)) { departures.append($0) }
                }
            ])
        let service = try VarlinkService(
            vendor: "Shaky Words", product: "broadcast-tests", version: "1.0", url: "https://shakywords.invalid",
            interfaces: [interface], logger: log.logger())
        let directory = try TemporaryDirectory(prefix: "shaky-broadcast")
        defer { directory.remove() }
        let socketPath = directory.appending("broadcast.sock")
        let server = try await VarlinkServer.bind(to: .unixSocket(path: socketPath), service: service)
        let serving = Task { try await server.run() }
        defer { serving.cancel() }
        try await body(
            BroadcastServer(broadcast: broadcast, departures: departures, service: service, socketPath: socketPath))
        serving.cancel()
        try await serving.value
    }

    /// Parameters with `number`, and `padding` characters of padding.
    static func reply(_ number: Int, padding: Int = 0) -> VarlinkEncodedParameters {
        VarlinkEncodedParameters(["number": .int(number), "padding": .string(String(repeating: "x", count: padding))])
    }

    func connect(_ count: Int) async throws -> [VarlinkClient] {
        var clients: [VarlinkClient] = []
        for _ in 0..<count { clients.append(try await VarlinkClient.connect(unixSocketPath: socketPath)) }
        return clients
    }

    /// Calls `Listen` in this process, as ``VarlinkService/handle(_:from:hangUp:send:)`` serves it.
    func callInProcess() -> (replies: AsyncThrowingStream<VarlinkObject, any Error>, hangUp: @Sendable () -> Void) {
        let (replies, continuation) = AsyncThrowingStream<VarlinkObject, any Error>.makeStream()
        let service = service
        let task = Task {
            do {
                try await service.handle(
                    VarlinkCall(method: Self.listen, more: true), from: .currentProcess
                ) { reply in continuation.yield(reply.parameters) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return (replies, { task.cancel() })
    }

    /// Waits until the broadcast has `count` subscribers (each call subscribes on the server's own tasks).
    func waitForSubscribers(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while broadcast.count != count {
            try #require(ContinuousClock.now < deadline, "\(broadcast.count) subscribers, not \(count)")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// Why subscribers left, in order.
private final class Departures: Sendable {
    private let list = Mutex<[VarlinkBroadcast.Departure]>([])

    func append(_ departure: VarlinkBroadcast.Departure) {
        list.withLock { $0.append(departure) }
    }

    var value: [VarlinkBroadcast.Departure] { list.withLock { $0 } }
}

import ShakyTesting
import Testing

@testable import Varlink

/// The bytes of messages a server holds are bounded in all and per user: half-sent messages on many connections
/// cannot take the daemon's memory, and ordinary calls still get through while large ones fill the budget.
@Suite("Message budget")
struct MessageBudgetTests {
    static let limits = VarlinkServer.ConnectionLimits(heldMessageBytes: 1 << 20, heldMessageBytesPerUser: 64 << 10)

    /// A `Hello` call whose message is `length` bytes long (without its NUL).
    static func hello(length: Int) -> [UInt8] {
        let head = #"{"method":"org.shakywords.Example.Hello","parameters":{"name":""#
        let tail = #""}}"#
        return Array((head + String(repeating: "x", count: length - head.utf8.count - tail.utf8.count) + tail).utf8)
    }

    static func answersGetInfo(_ socket: RawSocket) async throws -> Bool {
        guard await socket.send(#"{"method":"org.varlink.service.GetInfo"}"#) else { return false }
        guard case .success(let frame) = await socket.readFrame() else { return false }
        return try VarlinkReply(frame: frame).error == nil
    }

    /// Sends a whole 40 KiB `Hello` on new connections until one is answered (the server counts a hung-up
    /// connection's bytes out once it sees the hang-up).
    static func aLargeMessageIsAnsweredSoon(at path: String) async throws -> Bool {
        for _ in 0..<200 {
            let socket = try RawSocket(path: path)
            guard await socket.write(hello(length: 40 << 10) + [0]) else { continue }
            if case .success(let frame) = await socket.readFrame(), try VarlinkReply(frame: frame).error == nil {
                return true
            }
        }
        return false
    }

    @Test("A half-sent message that takes its user over the budget closes its connection; small calls still answer")
    func halfSentMessages() async throws {
        try await ExampleServer.run(limits: Self.limits) { server in
            let first = try RawSocket(path: server.socketPath)
            #expect(await first.write(Array(Self.hello(length: 40 << 10).prefix(40_000))))
            try await waitUntil("the server counts what was sent") {
                server.server.messageBudget.total >= 40_000 - 4096
            }
            let second = try RawSocket(path: server.socketPath)
            #expect(await second.write(Array(Self.hello(length: 40 << 10).prefix(40_000))))
            #expect(await second.readUntilClosed() == .success([]), "36 KiB counted each: over 64 KiB")

            #expect(try await Self.answersGetInfo(try RawSocket(path: server.socketPath)))
            first.hangUp()
            #expect(try await Self.aLargeMessageIsAnsweredSoon(at: server.socketPath))
        }
    }

    @Test("A whole message waiting behind a stream counts until it is answered")
    func messagesWaitingBehindAStream() async throws {
        try await ExampleServer.run(limits: Self.limits) { server in
            let streaming = try RawSocket(path: server.socketPath)
            #expect(await streaming.send(#"{"method":"org.shakywords.Example.Follow","more":true}"#))
            #expect(try await streaming.readReply().continues)
            #expect(await streaming.write(Self.hello(length: 40 << 10) + [0]))
            try await waitUntil("the server counts what was sent") { server.server.messageBudget.total >= 36 << 10 }

            let other = try RawSocket(path: server.socketPath)
            #expect(await other.write(Self.hello(length: 40 << 10) + [0]))
            #expect(await other.readUntilClosed() == .success([]))

            streaming.hangUp()
            #expect(try await Self.aLargeMessageIsAnsweredSoon(at: server.socketPath))
        }
    }

    @Test("One user's messages leave the rest of the total to the others")
    func perUserShare() throws {
        let budget = VarlinkMessageBudget(
            limits: VarlinkServer.ConnectionLimits(heldMessageBytes: 100, heldMessageBytesPerUser: 60))
        try budget.reserve(60, for: 1)
        #expect(throws: VarlinkMessageBudgetExceeded.self) { try budget.reserve(1, for: 1) }
        try budget.reserve(40, for: 2)
        #expect(throws: VarlinkMessageBudgetExceeded.self) { try budget.reserve(1, for: 2) }
        budget.release(30, for: 1)
        try budget.reserve(20, for: 2)
        #expect(budget.total == 90)
    }

    @Test("A connection counts only what passes its first 4 KiB, and gives all back when it goes")
    func connectionAllowance() throws {
        let budget = VarlinkMessageBudget(limits: VarlinkServer.ConnectionLimits())
        var messages: VarlinkConnectionMessages? = VarlinkConnectionMessages(budget: budget, uid: 7)
        try messages?.decoderHolds(4096)
        #expect(budget.total == 0)
        try messages?.decoderHolds(5000)
        #expect(budget.total == 904)
        messages?.decoded(5000)
        try messages?.decoderHolds(0)
        #expect(budget.total == 904, "a decoded message counts until it is answered")
        try messages?.decoderHolds(1000)
        #expect(budget.total == 1904)
        messages?.answered(5000)
        #expect(budget.total == 0)
        try messages?.decoderHolds(10_000)
        messages = nil
        #expect(budget.total == 0)
    }
}

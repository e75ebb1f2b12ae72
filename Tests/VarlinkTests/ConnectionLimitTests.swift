import ShakyTesting
import Testing
import Varlink

/// One user cannot take every connection: beyond the limits a new connection is closed at once, and there is
/// room again as soon as one ends.
@Suite("Connection limits")
struct ConnectionLimitTests {
    static let getInfo = #"{"method":"org.varlink.service.GetInfo"}"#

    static func answers(_ socket: RawSocket) async throws -> Bool {
        guard await socket.send(getInfo) else { return false }
        guard case .success(let frame) = await socket.readFrame() else { return false }
        return try VarlinkReply(frame: frame).error == nil
    }

    @Test("A connection past the per-user limit is closed unanswered; one ending makes room")
    func perUserLimit() async throws {
        try await ExampleServer.run(limits: VarlinkServer.ConnectionLimits(total: 10, perUser: 2)) { server in
            let first = try RawSocket(path: server.socketPath)
            let second = try RawSocket(path: server.socketPath)
            #expect(try await Self.answers(first))
            #expect(try await Self.answers(second))

            let third = try RawSocket(path: server.socketPath)
            _ = await third.send(Self.getInfo)
            #expect(await third.readUntilClosed() == .success([]))

            first.hangUp()
            // The server counts the first out once it sees the hang-up; a new connection then gets in.
            var admitted = false
            for _ in 0..<200 where !admitted {
                let next = try RawSocket(path: server.socketPath)
                admitted = try await Self.answers(next)
                next.hangUp()
            }
            #expect(admitted)
            #expect(try await Self.answers(second))
        }
    }

    @Test("The total limit holds across users too")
    func totalLimit() async throws {
        try await ExampleServer.run(limits: VarlinkServer.ConnectionLimits(total: 1, perUser: 5)) { server in
            let first = try RawSocket(path: server.socketPath)
            #expect(try await Self.answers(first))
            let second = try RawSocket(path: server.socketPath)
            _ = await second.send(Self.getInfo)
            #expect(await second.readUntilClosed() == .success([]))
        }
    }
}

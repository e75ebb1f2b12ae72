import Foundation
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `VarlinkServer.shutDownGracefully()`: new clients are refused and idle connections and streams closed at once, a
/// call running replies before its connection closes, and the drain's bound (on a manual clock) cuts off what is
/// left, so that neither a handler that never returns nor a client that never reads holds the server.
@Suite("Graceful stop")
struct GracefulStopTests {
    static let hold = #"{"method":"org.shakywords.Example.Hold"}"#
    static let reset = #"{"method":"org.shakywords.Example.Reset"}"#

    /// Waits (20 s at most) until `count` tasks sleep on `clock`.
    static func waitForSleepers(
        _ clock: ManualClock, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let patience = ContinuousClock.now + .seconds(20)
        while clock.sleeperCount != count, ContinuousClock.now < patience { await Task.yield() }
        try #require(clock.sleeperCount == count, "sleepers on the manual clock", sourceLocation: sourceLocation)
    }

    /// How many bytes wait to be read on `socket`.
    static func bytesWaiting(on socket: RawSocket) -> Int {
        var count: CInt = 0
        let result = withUnsafeMutablePointer(to: &count) { ioctl(socket.descriptor, UInt(FIONREAD), $0) }
        return result == 0 ? Int(count) : 0
    }

    @Test("A call running replies before its connection closes; idle ones and streams close at once; no client gets in")
    func runningCallRepliesBeforeItsConnectionCloses() async throws {
        let recorder = LogRecorder()
        try await ExampleServer.run(idleTimeout: nil, clock: ManualClock(), logger: recorder.logger()) { server in
            let idle = try RawSocket(path: server.socketPath)
            let watcher = try RawSocket(path: server.socketPath)
            let holder = try RawSocket(path: server.socketPath)
            #expect(try await IdleConnectionTests.answers(idle))
            #expect(await watcher.send(IdleConnectionTests.follow))
            guard case .success = await watcher.readFrame() else {
                Issue.record("Follow sent no first reply")
                return
            }
            #expect(await holder.send(Self.hold))
            await server.probe.nextHoldStarted()
            // Sent behind the running call, as a client that pipelines: never started.
            #expect(await holder.send(Self.reset))

            server.server.shutDownGracefully()
            #expect(await idle.readUntilClosed() == .success([]))
            #expect(await server.probe.nextHangup() == "Follow", "the stream is ended")
            #expect(await watcher.readUntilClosed() == .success([]))
            #expect(!FileManager.default.fileExists(atPath: server.socketPath), "the socket file is removed")
            #expect(throws: RawSocket.Failure.self, "a new client is refused") {
                try RawSocket(path: server.socketPath)
            }

            server.probe.releaseHolds()
            let reply = try await holder.readReply()
            #expect(reply.error == nil)
            #expect(reply.parameters == [:])
            #expect(await holder.readUntilClosed() == .success([]), "closed after the reply, the next call unanswered")
            // Returns with no time passing on the server's clock: the drain ended when the last call replied.
            try await server.serving.value
            server.probe.finish()
            #expect(await server.probe.resetCount() == 0, "the call sent behind the running one did not run")
        }
        let messages = recorder.messages.withLock { $0 }
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "stopping: waiting up to 10.0 seconds for the calls running to reply: org.shakywords.Example.Hold (uid"
                )
            }, "\(messages)")
        #expect(!messages.contains { $0.contains("cut off") }, "\(messages)")
    }

    @Test("A call that does not reply within the bound is cut off and left behind, and the server returns")
    func callPastTheBoundIsCutOff() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        try await ExampleServer.run(
            idleTimeout: nil, drainTimeout: .seconds(3), clock: clock, logger: recorder.logger()
        ) { server in
            defer { server.probe.releaseHolds() }
            let holder = try RawSocket(path: server.socketPath)
            #expect(await holder.send(Self.hold))
            await server.probe.nextHoldStarted()

            server.server.shutDownGracefully()
            try await Self.waitForSleepers(clock, count: 1)
            clock.advance(by: .seconds(3) - .milliseconds(1))
            #expect(clock.sleeperCount == 1, "the bound has not passed")
            clock.advance(by: .milliseconds(1))
            #expect(await holder.readUntilClosed() == .success([]), "closed with no reply")
            // The handler still waits (it ignores cancellation): the server returns without it.
            try await server.serving.value
        }
        let messages = recorder.messages.withLock { $0 }
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "stopping: the calls running did not reply within 3.0 seconds; cut off: org.shakywords.Example.Hold (uid"
                )
            }, "\(messages)")
    }

    @Test("A client that does not read its reply holds the server only until the bound")
    func unreadReplyIsCutOffAtTheBound() async throws {
        let clock = ManualClock()
        // Far more than a Unix socket's buffers hold: most of the reply waits for the client to read.
        let size = 4 << 20
        try await ExampleServer.run(idleTimeout: nil, drainTimeout: .seconds(3), clock: clock) { server in
            defer { server.probe.releaseHolds() }
            let holder = try RawSocket(path: server.socketPath)
            #expect(await holder.send(#"{"method":"org.shakywords.Example.Hold","parameters":{"size":\#(size)}}"#))
            await server.probe.nextHoldStarted()

            server.server.shutDownGracefully()
            server.probe.releaseHolds()
            let patience = ContinuousClock.now + .seconds(20)
            while Self.bytesWaiting(on: holder) == 0, ContinuousClock.now < patience { await Task.yield() }
            try #require(Self.bytesWaiting(on: holder) > 0, "the reply began to arrive")

            try await Self.waitForSleepers(clock, count: 1)
            clock.advance(by: .seconds(3))
            try await server.serving.value
            guard case .success(let received) = await holder.readUntilClosed() else {
                Issue.record("the connection was not closed")
                return
            }
            #expect(received.count < size, "the reply was cut off at the bound, not waited for")
        }
    }

    @Test("A stream whose client does not read what was sent is closed at the bound as unread, not as a call cut off")
    func unreadStreamIsNotACallCutOff() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        // Far more replies than a Unix socket's buffers hold: most of them wait for the client to read.
        let count = 20_000
        try await ExampleServer.run(
            idleTimeout: nil, drainTimeout: .seconds(3), clock: clock, logger: recorder.logger()
        ) { server in
            let watcher = try RawSocket(path: server.socketPath)
            #expect(
                await watcher.send(
                    #"{"method":"org.shakywords.Example.Count","parameters":{"to":\#(count)},"more":true}"#))
            let patience = ContinuousClock.now + .seconds(20)
            while Self.bytesWaiting(on: watcher) == 0, ContinuousClock.now < patience { await Task.yield() }
            try #require(Self.bytesWaiting(on: watcher) > 0, "the replies began to arrive")

            server.server.shutDownGracefully()
            try await Self.waitForSleepers(clock, count: 1)
            clock.advance(by: .seconds(3))
            try await server.serving.value
        }
        let messages = recorder.messages.withLock { $0 }
        #expect(!messages.contains { $0.hasPrefix("stopping: the calls running did not reply") }, "\(messages)")
        #expect(
            messages.contains("stopping: closing 1 connections whose clients did not read what was sent"), "\(messages)"
        )
    }
}

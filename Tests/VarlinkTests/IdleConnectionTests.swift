import ShakyTesting
import Testing
import Varlink

/// A connection that sends nothing with no call running is closed after the idle timeout; one that calls, or
/// that holds a `more` call open (a watcher), stays. Time is a manual clock.
@Suite("Idle connections")
struct IdleConnectionTests {
    static let getInfo = #"{"method":"org.varlink.service.GetInfo"}"#
    static let follow = #"{"method":"org.shakywords.Example.Follow","more":true}"#

    static func answers(_ socket: RawSocket) async throws -> Bool {
        guard await socket.send(getInfo) else { return false }
        guard case .success(let frame) = await socket.readFrame() else { return false }
        return try VarlinkReply(frame: frame).error == nil
    }

    /// Waits (20 s at most) until `count` connections' idle timers sleep on `clock` (each connection has one).
    static func waitForTimers(
        _ clock: ManualClock, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let patience = ContinuousClock.now + .seconds(20)
        while clock.sleeperCount != count, ContinuousClock.now < patience { await Task.yield() }
        try #require(clock.sleeperCount == count, "idle timers", sourceLocation: sourceLocation)
    }

    @Test("Closed after 60 s of silence with no call running; a call restarts the count; a watcher stays")
    func idleConnectionsAreClosed() async throws {
        let clock = ManualClock()
        try await ExampleServer.run(idleTimeout: .seconds(60), clock: clock) { server in
            let silent = try RawSocket(path: server.socketPath)
            let talking = try RawSocket(path: server.socketPath)
            let watcher = try RawSocket(path: server.socketPath)
            #expect(try await Self.answers(talking))
            #expect(await watcher.send(Self.follow))
            guard case .success = await watcher.readFrame() else {
                Issue.record("Follow sent no first reply")
                return
            }
            try await Self.waitForTimers(clock, count: 3)

            clock.advance(by: .seconds(59))
            #expect(try await Self.answers(talking))
            clock.advance(by: .seconds(1))
            #expect(await silent.readUntilClosed() == .success([]))
            // The other two timers looked and slept again: the talker's until 59 + 60 s, the watcher's a minute on.
            try await Self.waitForTimers(clock, count: 2)
            #expect(try await Self.answers(talking))

            clock.advance(by: .seconds(60))
            #expect(await talking.readUntilClosed() == .success([]))
            try await Self.waitForTimers(clock, count: 1)
            clock.advance(by: .seconds(600))
            try await Self.waitForTimers(clock, count: 1)
            // The watcher's call still runs: it is not idle, however long it waits.
            #expect(await watcher.send(Self.getInfo))
            watcher.hangUp()
            #expect(await server.probe.nextHangup() == "Follow")
        }
    }
}

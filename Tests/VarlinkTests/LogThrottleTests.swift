import Logging
import ShakyTesting
import Synchronization
import Testing

@testable import Varlink

@Suite("Log throttle")
struct LogThrottleTests {
    @Test("one message per key and interval, with the count of those held back")
    func onePerInterval() {
        var throttle = LogThrottle(interval: .seconds(60))
        #expect(throttle.admit("a", at: .seconds(100)) == 0)
        #expect(throttle.admit("a", at: .seconds(101)) == nil)
        #expect(throttle.admit("b", at: .seconds(101)) == 0, "keys are apart")
        #expect(throttle.admit("a", at: .seconds(159)) == nil)
        #expect(throttle.admit("a", at: .seconds(160)) == 2)
        #expect(throttle.admit("a", at: .seconds(161)) == nil)
        #expect(LogThrottle.message("gone", heldBack: 0) == "gone")
        #expect(LogThrottle.message("gone", heldBack: 2) == "gone (2 more like it not logged since the last)")
    }

    @Test("log says a message once per key and interval, the message itself being the key unless one is given")
    func logs() {
        let recorder = LogRecorder()
        var throttle = LogThrottle()
        for device in ["event3", "event3", "event4"] {
            throttle.log(.notice, "device gone", key: "gone \(device)", to: recorder.logger())
        }
        throttle.log(.error, "cannot save", to: recorder.logger())
        throttle.log(.error, "cannot save", to: recorder.logger())
        #expect(recorder.messages.withLock { $0 } == ["device gone", "device gone", "cannot save"])
    }

    @Test("past its most keys it forgets them all rather than grow")
    func boundedKeys() {
        var throttle = LogThrottle(interval: .seconds(60))
        for key in 0..<LogThrottle.mostKeys { #expect(throttle.admit("\(key)", at: .zero) == 0) }
        #expect(throttle.admit("0", at: .zero) == nil)
        #expect(throttle.admit("new", at: .zero) == 0)
        #expect(throttle.admit("0", at: .zero) == 0, "forgotten")
    }

    @Test("Clients sending malformed messages or refused at the limit, again and again, are logged once a minute")
    func clientsCannotFloodTheLog() async throws {
        let recorder = LogRecorder()
        let logger = recorder.logger()
        try await ExampleServer.run(logger: logger) { server in
            for _ in 0..<20 {
                let socket = try RawSocket(path: server.socketPath)
                _ = await socket.send("not json")
                #expect(await socket.readUntilClosed() == .success([]))
            }
        }
        try await ExampleServer.run(limits: VarlinkServer.ConnectionLimits(total: 10, perUser: 1), logger: logger) {
            server in
            // At the limit, again and again: one connection served, one refused, the first leaves.
            for _ in 0..<10 {
                var held: RawSocket?
                // The server counts the last one out once it sees the hang-up.
                for _ in 0..<200 where held == nil {
                    let next = try RawSocket(path: server.socketPath)
                    if try await ConnectionLimitTests.answers(next) { held = next } else { next.hangUp() }
                }
                let served = try #require(held)
                let refused = try RawSocket(path: server.socketPath)
                _ = await refused.send(ConnectionLimitTests.getInfo)
                #expect(await refused.readUntilClosed() == .success([]))
                served.hangUp()
            }
        }
        #expect(recorder.count(startingWith: "closing the connection") == 1)
        #expect(recorder.count(startingWith: "refusing connections") == 1)
    }
}

import ShakyTesting
import Testing
import Varlink

/// A burst of clients connecting at once all get in: the listen backlog (4096) holds them while the accept loop
/// catches up, so an event-driven client's connect never fails with EAGAIN.
@Suite("Connect burst", .tags(.heavy))
struct ConnectBurstTests {
    @Test("400 clients connecting at once, without waiting, are all accepted and answered")
    func burstOfConnects() async throws {
        #expect(VarlinkServer.backlog >= 400)
        try await ExampleServer.run { server in
            // All connects first, as fast as a loop goes, before any is answered: with a backlog of 128 about half
            // of them failed with EAGAIN.
            var sockets: [RawSocket] = []
            var refused: [String] = []
            for _ in 0..<400 {
                do {
                    sockets.append(try RawSocket(path: server.socketPath, withoutWaiting: true))
                } catch {
                    refused.append("\(error)")
                }
            }
            #expect(refused.isEmpty, "\(refused.count) connects failed, the first: \(refused.first ?? "")")
            var answered = 0
            for socket in sockets where try await IdleConnectionTests.answers(socket) { answered += 1 }
            #expect(answered == 400)
        }
    }
}

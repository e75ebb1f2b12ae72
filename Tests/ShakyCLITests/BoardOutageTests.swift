import ShakyProtocol
import Synchronization
import Testing
import Varlink

@testable import ShakyBoard

/// The board when its daemon goes away mid-question (here rather than with the board's own tests: ``FakeDaemon``
/// scripts the daemon and hangs up when told).
@Suite("Board and a daemon that goes away")
struct BoardOutageTests {
    @Test("The countdown stops where it was when the daemon goes away, and is not counted down while it is away")
    func theCountdownStopsWhileTheDaemonIsAway() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Game.Watch", with: .watch([Fixtures.event(.state) { $0.status = Fixtures.answering }], end: true))
            // The board's clock: the game comes at 0 s, the daemon is found gone 5 s later.
            let readings = Mutex(0)
            let model = BoardModel()
            let feed = BoardFeed(
                socketPath: daemon.socketPath,
                now: {
                    readings.withLock { count in
                        defer { count += 1 }
                        return count == 0 ? .zero : .seconds(5)
                    }
                },
                sleep: { _ in try await Task.sleep(for: .seconds(3600)) })
            let feeding = Task { await feed.run(into: model) }
            defer { feeding.cancel() }
            for _ in 0..<4000 where !model.snapshot.state.connection.isReconnecting {
                try await Task.sleep(for: .milliseconds(5))
            }
            let state = model.snapshot.state
            #expect(state.connection == .reconnecting(attempt: 1))
            #expect(state.phase == .answering(team: "Owls"), "the game stays shown")
            #expect(!state.countdown.isRunning)
            #expect(state.counted(at: .seconds(60)).remaining == 12.3, "17.3 s when the game came, 5 s before")
            #expect(state.nextTimedChange(after: .seconds(6)) == nil, "no redraw each second for it")
        }
    }
}

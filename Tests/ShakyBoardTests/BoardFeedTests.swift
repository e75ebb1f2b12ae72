import ShakyBoard
import ShakyCore
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing

/// The feed that keeps the board up to date: reconnects with backoff, never gives up on its own.
@Suite("Board feed")
struct BoardFeedTests {
    @Test func theBackoffDoublesUpToItsMaximum() {
        let backoff = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(5))
        #expect(
            (1...7).map { backoff.delay(afterFailures: $0) } == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
            ])
        #expect(backoff.delay(afterFailures: 1000) == .seconds(5))
    }

    @Test("Retrying: each failed try waits longer; hearing from the daemon says how many failed before, and resets")
    func retryingCountsFailuresInARow() async throws {
        let waits = Mutex<[Duration]>([])
        var tries = 0
        var heard: [Int] = []
        var failures: [Int] = []
        let backoff = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(5))
        // Tries 1 to 3 fail before hearing from the daemon, 4 hears from it (twice) and then fails, 5 and 6 fail, 7
        // hears from it again.
        await #expect(throws: CancellationError.self) {
            try await backoff.retry(sleep: { delay in waits.withLock { $0.append(delay) } }) { heardFromDaemon in
                tries += 1
                if tries == 4 || tries == 7 {
                    heard.append(heardFromDaemon())
                    heard.append(heardFromDaemon())
                }
                if tries == 7 { throw CancellationError() }
            } failed: { count in
                failures.append(count)
            }
        }
        #expect(heard == [3, 0, 3, 0])
        #expect(failures == [1, 2, 3, 1, 2, 3])
        #expect(
            waits.withLock { $0 } == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(250), .milliseconds(500),
                .seconds(1),
            ])
    }

    @Test func withNoDaemonItSaysReconnectingAndTriesAgainWithBackoff() async throws {
        let folder = try TemporaryDirectory(prefix: "shaky-board-feed")
        defer { folder.remove() }
        let waits = Mutex<[Duration]>([])
        let model = BoardModel()
        let feed = BoardFeed(
            socketPath: folder.appending("nobody-here.sock"), now: { .zero },
            sleep: { delay in
                let count = waits.withLock { waits in
                    waits.append(delay)
                    return waits.count
                }
                #expect(model.snapshot.state.connection == .reconnecting(attempt: count))
                if count == 4 { throw CancellationError() }
            })
        await feed.run(into: model)
        #expect(waits.withLock { $0 } == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        #expect(model.snapshot.state.connection == .reconnecting(attempt: 4))
        #expect(model.snapshot.state.daemonSockets == [folder.appending("nobody-here.sock")])
        #expect(model.snapshot.state.daemonProblem == "no socket there")
    }

    @Test func withNoSocketGivenItTriesTheUsualPlacesAndSaysWhich() {
        let defaults = DefaultPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], isRoot: false)
        let feed = BoardFeed(socketPath: nil, defaults: defaults, now: { .zero }, sleep: { _ in })
        #expect(feed.sockets == ["/run/user/1000/shaky/shaky.sock", "/run/shaky/shaky.sock"])
        let named = BoardFeed(socketPath: "/tmp/x.sock", defaults: defaults, now: { .zero }, sleep: { _ in })
        #expect(named.sockets == ["/tmp/x.sock"])
    }

    @Test func itShowsTheDaemonsGameAsItGoes() async throws {
        try await TestDaemon.run(.socket) { daemon in
            let model = BoardModel()
            // Waits (between tries, between settings reads) never end here: only the daemon's events move it.
            let feed = BoardFeed(
                socketPath: daemon.socketPath, now: { .zero }, sleep: { _ in try await Task.sleep(for: .seconds(3600)) }
            )
            let feeding = Task { await feed.run(into: model) }
            defer { feeding.cancel() }
            try await waitFor(model, "the empty daemon") { $0.connection == .connected && $0.phase == .noGame }

            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            _ = try await client.game.new(teams: ["Owls", "Foxes"], questions: 1, seed: 1)
            try await waitFor(model, "the new game") {
                $0.phase == .ready && $0.teams.map(\.name) == ["Owls", "Foxes"]
            }
            _ = try await client.game.next()
            try await waitFor(model, "the open question") { $0.phase == .open && !$0.tiles.isEmpty }
            // The board counts the countdown down on its own clock, from the daemon's tick as the question opens.
            try await waitFor(model, "the countdown running here") { $0.countdown.isRunning }
            #expect(model.snapshot.state.counted(at: .zero).remaining == 60)
            #expect(daemon.daemon.watchers.count == 1)
            #expect(!daemon.daemon.watchers.ticksHeard, "the board asks for no tick each second")
            _ = try await client.game.buzz(team: "Foxes")
            try await waitFor(model, "the buzz") { $0.buzzes.map(\.team) == ["Foxes"] }
            await client.close()
        }
    }

    /// Polls the model (fed by the daemon's socket) until `condition` holds, for at most 20 seconds.
    private func waitFor(_ model: BoardModel, _ what: String, _ condition: (BoardState) -> Bool) async throws {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(20)
        while !condition(model.snapshot.state) {
            guard clock.now < end else {
                Issue.record("the board never showed \(what): \(model.snapshot.state)")
                return
            }
            try await clock.sleep(for: .milliseconds(10))
        }
    }
}

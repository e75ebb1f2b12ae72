import ArgumentParser
import Foundation
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing

@testable import ShakyCLI

/// The game's live feed in `shaky play` and `shaky watch` when the daemon goes away and comes back, against a fake
/// daemon whose `Watch` ends (as a stopped daemon's does) until the first wait is over.
@Suite struct LiveFeedTests {
    static let questionTwo = Fixtures.event(.roundStarted) {
        $0.number = 2
        $0.total = 10
        $0.question = "Which bird hoots at night?"
        $0.tiles = Fixtures.twoWordTiles
        $0.points = 10
    }

    /// Scripts a daemon whose first `Watch` ends after the game's state; the returned `sleep` records each wait, and
    /// the first one brings the daemon back with a feed that stays open and opens question 2.
    func restartingDaemon(
        _ daemon: FakeDaemon
    ) -> (
        sleep: @Sendable (Duration) async throws -> Void, waits: @Sendable () -> [Duration]
    ) {
        daemon.answer(
            "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.ready)))
        daemon.answer("Game.Watch", with: .watch([PlaySessionTests.watchEvents[0]], end: true))
        let waits = Mutex<[Duration]>([])
        let sleep: @Sendable (Duration) async throws -> Void = { delay in
            waits.withLock { $0.append(delay) }
            daemon.answer("Game.Watch", with: .watch([PlaySessionTests.watchEvents[0], Self.questionTwo], end: false))
        }
        return (sleep, { waits.withLock { $0 } })
    }

    /// Lines in from a stream that gives `q` once `console` shows `text`, on either output (or after 20 s).
    static func quitting(once console: RecordingConsole, shows text: String) -> AsyncStream<String> {
        AsyncStream { continuation in
            Task {
                let clock = ContinuousClock()
                let end = clock.now + .seconds(20)
                while !console.output.contains(text), !console.error.contains(text), clock.now < end {
                    try? await clock.sleep(for: .milliseconds(10))
                }
                continuation.yield("q")
                continuation.finish()
            }
        }
    }

    @Test func playSaysTheDaemonWasLostAndIsBackAndShowsTheGameAgain() async throws {
        try await FakeDaemon.run { daemon in
            let (sleep, waits) = restartingDaemon(daemon)
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let session = PlaySession(client: client, console: console, sleep: sleep)
            try await session.run(commands: Self.quitting(once: console, shows: "Which bird hoots at night?"))
            await client.close()
            #expect(console.error.contains("! Lost the daemon at \(daemon.socketPath): reconnecting…\n"))
            #expect(console.output.contains("Reconnected to the daemon at \(daemon.socketPath).\n"))
            #expect(console.output.contains("Question 2/10: Which bird hoots at night?"), "\(console.output)")
            #expect(waits() == [.milliseconds(250)])
            #expect(daemon.calls.filter { $0.method == "io.shakywords.Game.Watch" }.count == 2)
        }
    }

    @Test func onATerminalTheCountdownLineSaysReconnectingUntilTheDaemonIsBack() async throws {
        try await FakeDaemon.run { daemon in
            let (sleep, _) = restartingDaemon(daemon)
            let console = RecordingConsole()
            let screen = PlayScreen(rows: 24, columns: 100)
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let session = PlaySession(client: client, console: console, screen: screen, sleep: sleep)
            try await session.run(commands: Self.quitting(once: console, shows: "Which bird hoots at night?"))
            await client.close()
            let lost = "Lost the daemon at \(daemon.socketPath): reconnecting…"
            let output = console.output
            #expect(output.contains(screen.event("! " + lost)))
            let reconnecting = try #require(output.range(of: screen.countdown(lost)))
            let back = try #require(
                output.range(of: screen.event("Reconnected to the daemon at \(daemon.socketPath).")))
            #expect(reconnecting.upperBound <= back.lowerBound)
            #expect(output[back.upperBound...].hasPrefix(screen.countdown("")), "the countdown line is cleared")
        }
    }

    @Test func watchSaysTheDaemonWasLostOnStandardErrorAndFollowsTheGameAgain() async throws {
        try await FakeDaemon.run { daemon in
            let (sleep, waits) = restartingDaemon(daemon)
            let console = RecordingConsole()
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let watch = try #require(try Shaky.parseAsRoot(["watch"]) as? Shaky.Watch)
            let following = Task { try await watch.follow(LiveFeed(client: client, sleep: sleep), on: console) }
            let clock = ContinuousClock()
            let end = clock.now + .seconds(20)
            while !console.output.contains("Which bird hoots at night?"), clock.now < end {
                try await clock.sleep(for: .milliseconds(10))
            }
            following.cancel()
            _ = await following.result
            await client.close()
            #expect(
                console.error == "Lost the daemon at \(daemon.socketPath): reconnecting…\n"
                    + "Reconnected to the daemon at \(daemon.socketPath).\n")
            #expect(console.output.contains("Question 2/10: Which bird hoots at night?"), "\(console.output)")
            #expect(waits() == [.milliseconds(250)])
        }
    }

    @Test func aDaemonThatStaysAwayIsTriedAgainWithBackoffAndSaidOnce() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Game.Watch", with: .watch([PlaySessionTests.watchEvents[0]], end: true))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let waits = Mutex<[Duration]>([])
            let updates = Mutex<[String]>([])
            let feed = LiveFeed(
                client: client,
                sleep: { delay in
                    let count = waits.withLock { waits in
                        waits.append(delay)
                        return waits.count
                    }
                    // Its socket is gone: a daemon that does not come back.
                    if count == 1 { unlink(daemon.socketPath) }
                    if count == 4 { throw CancellationError() }
                })
            await #expect(throws: CancellationError.self) {
                try await feed.run { update in
                    switch update {
                    case .reply(let reply): updates.withLock { $0.append("\(reply.event.kind)") }
                    case .lost: updates.withLock { $0.append("lost") }
                    case .back: updates.withLock { $0.append("back") }
                    }
                }
            }
            await client.close()
            #expect(updates.withLock { $0 } == ["state", "lost"])
            #expect(waits.withLock { $0 } == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        }
    }

    @Test func aFeedThatCountsDownMakesTheTicksBetweenTheDaemonsEventsOnItsOwnClock() async throws {
        try await FakeDaemon.run { daemon in
            let countdown = Fixtures.event(.tick) {
                $0.phase = "answering(Owls)"
                $0.remaining = 3.5
            }
            daemon.answer("Game.Watch", with: .watch([PlaySessionTests.watchEvents[0], countdown], end: false))
            let client = try await ShakyClient.connect(socketPath: daemon.socketPath)
            let clock = ManualClock()
            let feed = LiveFeed(
                client: client, countsDown: true,
                countdownClock: LiveFeed.CountdownClock(
                    now: { clock.now.offset },
                    sleepUntil: { try await clock.sleep(until: .init(offset: $0), tolerance: nil) }))
            let ticks = Mutex<[String]>([])
            let following = Task {
                try await feed.run { update in
                    guard case .reply(let reply) = update, reply.event.kind == .tick else { return }
                    ticks.withLock { $0.append("\(reply.event.phase ?? "?") \(reply.event.remaining ?? -1)") }
                }
            }
            try await waitUntil("the daemon's tick") { ticks.withLock { $0.count } == 1 }
            for (step, expected) in [(500, 2), (1000, 3), (1000, 4)] {
                try await waitUntil("the next second is waited for") { clock.sleeperCount == 1 }
                clock.advance(by: .milliseconds(step))
                try await waitUntil("tick \(expected)") { ticks.withLock { $0.count } == expected }
            }
            #expect(
                ticks.withLock { $0 } == [
                    "answering(Owls) 3.5", "answering(Owls) 3.0", "answering(Owls) 2.0", "answering(Owls) 1.0",
                ])
            // The last second is the daemon's: nothing waits for it here.
            try await waitUntil("the ticks end") { clock.sleeperCount == 0 }
            following.cancel()
            _ = await following.result
            await client.close()
            #expect(daemon.calls.contains(.init("Game.Watch", ["ticks": false])))
        }
    }
}

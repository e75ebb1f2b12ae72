import Logging
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import Varlink

@testable import ShakyDaemon

/// `Watch`: the state first, then every event in order, ticks driven by the manual clock.
@Suite("Watch")
struct WatchTests {
    @Test(
        "The state first, then hint, ticks, buzz, judged, scoreAdjusted, sensor and gameOver events in order",
        arguments: TestDaemon.Mode.allCases)
    func eventsInOrder(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 1))
            let watch = try await client.watch()

            let first = try await watch.nextEvent()
            #expect(first.kind == .state)
            #expect(first.status?.phase == .ready)
            #expect(first.status?.scores == ["Owls": 0, "Foxes": 0])

            let opened = try await client.game("Next")
            var event = try await watch.nextEvent()
            #expect(event.kind == .phaseChanged)
            #expect(event.phase == "indication")
            event = try await watch.nextEvent()
            #expect(event.kind == .roundStarted)
            #expect(event.number == 1)
            #expect(event.total == 1)
            #expect(event.question == opened.question)
            #expect(event.tiles == opened.tiles)
            #expect(event.points == 10)
            #expect(event.remaining == 60)
            let answer = try PartyPack.answer(to: opened.question)

            // A hint: one more tile fixed, the rest the same letters.
            try await client.game("Hint")
            event = try await watch.nextEvent()
            #expect(event.kind == .hint)
            #expect(event.source == "manual")
            #expect(event.points == 8)
            #expect(event.hintsUsed == 1)
            #expect(event.tiles?.filter(\.fixed).count == 1)
            #expect(event.tiles?.map(\.text).sorted() == opened.tiles?.map(\.text).sorted())

            // One tick per second of the manual clock, each awaited before the next second.
            for remaining in [59.0, 58.0] {
                client.clock.advance(by: .seconds(1))
                event = try await watch.nextEvent()
                #expect(event.kind == .tick)
                #expect(event.phase == "indication")
                #expect(event.remaining == remaining)
            }

            // A shake gives the second hint.
            await client.daemon.runtime.shake()
            event = try await watch.nextEvent()
            #expect(event.kind == .hint)
            #expect(event.source == "shake")
            #expect(event.points == 6)
            #expect(event.hintsUsed == 2)
            #expect(event.tiles?.filter(\.fixed).count == 2)

            // Buzzes in order with their times; the last team's buzz ends buzzing.
            try await client.game("Buzz", ["team": "Foxes"])
            event = try await watch.nextEvent()
            #expect(event.kind == .buzz)
            #expect(event.team == "Foxes")
            #expect(event.order == 1)
            #expect(event.elapsed == 2)
            #expect(event.remaining == 20)
            client.clock.advance(by: .seconds(1))
            event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.remaining == 19)
            try await client.game("Buzz", ["team": "Owls"])
            event = try await watch.nextEvent()
            #expect(event.kind == .buzz)
            #expect(event.team == "Owls")
            #expect(event.order == 2)
            #expect(event.elapsed == 3)
            event = try await watch.nextEvent()
            #expect(event.kind == .phaseChanged)
            #expect(event.phase == "answering(Foxes)")
            event = try await watch.nextEvent()
            #expect(event.kind == .teamUp)
            #expect(event.team == "Foxes")
            #expect(event.remaining == 60)

            // A wrong answer passes the turn; the answering countdown ticks too.
            try await client.call("io.shakywords.Game.Answer", ["team": "Foxes", "answer": "Zebra"])
            event = try await watch.nextEvent()
            #expect(event.kind == .judged)
            #expect(event.team == "Foxes")
            #expect(event.given == "Zebra")
            #expect(event.correct == false)
            #expect(event.awarded == 0)
            event = try await watch.nextEvent()
            #expect(event.kind == .phaseChanged)
            #expect(event.phase == "answering(Owls)")
            event = try await watch.nextEvent()
            #expect(event.kind == .teamUp)
            #expect(event.team == "Owls")
            client.clock.advance(by: .seconds(1))
            event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.phase == "answering(Owls)")
            #expect(event.remaining == 59)

            // The right answer.
            try await client.call("io.shakywords.Game.Answer", ["team": "Owls", "answer": .string(answer)])
            event = try await watch.nextEvent()
            #expect(event.kind == .judged)
            #expect(event.team == "Owls")
            #expect(event.correct == true)
            #expect(event.awarded == 6)
            event = try await watch.nextEvent()
            #expect(event.kind == .answerRevealed)
            #expect(event.answer == answer)
            #expect(event.winner == "Owls")
            #expect(event.roundEnd == .answered)
            event = try await watch.nextEvent()
            #expect(event.kind == .phaseChanged)
            #expect(event.phase == "roundOver")

            // A score adjustment by the host.
            try await client.game("AdjustScore", ["team": "Foxes", "delta": 3, "reason": "good sport"])
            event = try await watch.nextEvent()
            #expect(event.kind == .scoreAdjusted)
            #expect(event.team == "Foxes")
            #expect(event.delta == 3)
            #expect(event.reason == "good sport")
            #expect(event.score == 3)

            // The sensor comes and goes.
            await client.daemon.runtime.updateSensor(
                SensorReport(state: .ready, driver: "iio-poll", device: "/dev/iio:device0", sensitivity: .medium))
            event = try await watch.nextEvent()
            #expect(event.kind == .sensor)
            #expect(event.sensorPresent == true)
            #expect(event.sensorDevice == "/dev/iio:device0")
            await client.daemon.runtime.updateSensor(
                SensorReport(state: .gone, device: "/dev/iio:device0", sensitivity: .medium))
            event = try await watch.nextEvent()
            #expect(event.kind == .sensor)
            #expect(event.sensorPresent == false)

            // Next after the last question: game over.
            try await client.game("Next")
            event = try await watch.nextEvent()
            #expect(event.kind == .phaseChanged)
            #expect(event.phase == "gameOver")
            event = try await watch.nextEvent()
            #expect(event.kind == .gameOver)
            #expect(event.result?.winners == ["Owls"])
            #expect(event.result?.standings.map(\.points) == [6, 3])

            // Nothing else was sent, and hanging up removes the watcher.
            #expect(await watch.unreadCount == 0)
            await watch.cancel()
            try await waitUntil("the watcher is removed") { client.daemon.watchers.count == 0 }
        }
    }

    @Test(
        "A new game and pause/resume reach watchers; a watcher that joins late gets the game as it stands",
        arguments: TestDaemon.Mode.allCases)
    func stateForLateWatchers(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let early = try await client.watch()
            let nothing = try await early.nextEvent()
            #expect(nothing.kind == .state)
            #expect(nothing.status == nil)

            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let created = try await early.nextEvent()
            #expect(created.kind == .state)
            #expect(created.status?.phase == .ready)
            try await client.game("Next")
            for _ in 1...5 { try await client.advance(by: .seconds(1)) }
            try await client.game("Pause")

            let late = try await client.watch()
            let state = try await late.nextEvent()
            #expect(state.kind == .state)
            #expect(state.status?.phase == .indication)
            #expect(state.status?.paused == true)
            #expect(state.status?.remaining == 55)

            try await client.game("Resume")
            #expect(try await late.nextEvent().kind == .resumed)
            for expected: ShakyAPI.Event.Kind in [.phaseChanged, .roundStarted] + Array(repeating: .tick, count: 5)
                + [.paused, .resumed]
            {
                #expect(try await early.nextEvent().kind == expected)
            }
            await early.cancel()
            await late.cancel()
            try await waitUntil("both watchers are removed") { client.daemon.watchers.count == 0 }
        }
    }

    @Test(
        "A watcher that counts down itself hears the countdown's changes, not its seconds; the daemon sleeps through them",
        arguments: TestDaemon.Mode.allCases)
    func countingWatcher(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 1))
            let watch = try await client.watch(ticks: false)
            #expect(try await watch.nextEvent().kind == .state)

            try await client.game("Next")
            #expect(try await watch.nextEvent().kind == .phaseChanged)
            #expect(try await watch.nextEvent().kind == .roundStarted)
            var event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.phase == "indication")
            #expect(event.remaining == 60)
            // Nobody hears the seconds: the game's inbox sleeps five seconds at a time (to see a suspend soon after
            // it), until the last five.
            try await waitUntil("the runtime sleeps") { client.clock.sleeperDeadlines.contains(.seconds(5)) }
            #expect(!client.clock.sleeperDeadlines.contains { $0 < .seconds(5) })

            // Two seconds pass unheard; a buzz cuts the time to 20 s, and the watcher is told.
            try await client.advance(by: .seconds(2))
            try await client.game("Buzz", ["team": "Foxes"])
            event = try await watch.nextEvent()
            #expect(event.kind == .buzz)
            #expect(event.remaining == 20)
            event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.phase == "indication")
            #expect(event.remaining == 20)
            #expect(client.clock.sleeperDeadlines.contains(.seconds(2 + 5)))

            // A watcher that hears the ticks joins: the countdown ticks each second again, for it alone.
            let ticking = try await client.watch()
            #expect(try await ticking.nextEvent().kind == .state)
            try await waitUntil("the runtime wakes each second") { client.clock.sleeperDeadlines.contains(.seconds(3)) }
            try await client.advance(by: .seconds(1))
            event = try await ticking.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.remaining == 19)
            await ticking.cancel()
            try await waitUntil("the ticking watcher is removed") { client.daemon.watchers.count == 1 }

            // A pause stops the watcher's countdown; resuming tells it the time left.
            try await client.game("Pause")
            event = try await watch.nextEvent()
            #expect(event.kind == .paused)
            #expect(event.remaining == 19)
            try await client.game("Resume")
            #expect(try await watch.nextEvent().kind == .resumed)
            event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.remaining == 19)

            // The time to buzz runs out unheard until its last five seconds, which sound a tick each.
            let cuesBefore = client.soundPlayer.playedCues.count
            try await client.advance(by: .seconds(13))
            #expect(client.soundPlayer.playedCues.count == cuesBefore)
            for _ in 1...5 { try await client.advance(by: .seconds(1)) }
            #expect(client.soundPlayer.playedCues.dropFirst(cuesBefore) == [.tick, .tick, .tick, .tick, .tick])
            #expect(await watch.unreadCount == 0)

            // The time is up: the buzzers' first team is up, with its own countdown told.
            try await client.advance(by: .seconds(1))
            #expect(try await watch.nextEvent().kind == .phaseChanged)
            event = try await watch.nextEvent()
            #expect(event.kind == .teamUp)
            #expect(event.team == "Foxes")
            event = try await watch.nextEvent()
            #expect(event.kind == .tick)
            #expect(event.phase == "answering(Foxes)")
            #expect(event.remaining == 60)
            #expect(await watch.unreadCount == 0)
            await watch.cancel()
        }
    }
}

extension WatchStream where Element == VarlinkObject {
    /// The next reply, decoded as a Watch event.
    func nextEvent() async throws -> ShakyAPI.Event {
        try JSONValue.object(try await next()).decode(as: ShakyAPI.GameInterface.WatchReply.self).event
    }
}

/// The hub itself: a watcher that stops reading is dropped, logged, and its stream ends with the overflow.
@Suite("Watcher hub")
struct WatcherHubTests {
    @Test("A burst of watchers that hang up gives its memory back then, and again a second later with no event")
    func aBurstIsTrimmedAgainWithNoEvent() async throws {
        let trims = Mutex(0)
        let clock = ManualClock()
        let hub = WatcherHub(
            logger: Logger(label: "hub") { _ in SwiftLogNoOpLogHandler() },
            releaseFreeMemory: { trims.withLock { $0 += 1 } },
            sleep: { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) })
        let runtime = GameRuntime(
            database: try AppDatabase.inMemory(builtinPacks: .skip), clock: RuntimeClock(ManualClock()),
            sound: RecordingSoundPlayer(), logger: Logger(label: "runtime") { _ in SwiftLogNoOpLogHandler() })
        // Watchers that count down themselves: no tick is published while they come and go.
        var readers: [Task<Void, any Error>] = []
        for _ in 0..<WatcherBurstTrim.burst {
            let replies = await hub.watch(runtime, for: nil, ticks: false)
            readers.append(Task { for try await _ in replies {} })
        }
        #expect(hub.count == WatcherBurstTrim.burst)
        for reader in readers { reader.cancel() }
        try await waitUntil("every watcher left") { hub.count == 0 }
        // Three quarters gone: trimmed at once; the last to leave left after it.
        #expect(trims.withLock { $0 } == 1)
        try await waitUntil("the hub waits to trim again") { clock.sleeperCount == 1 }
        clock.advance(by: WatcherHub.drainTrimInterval)
        try await waitUntil("the second trim") { trims.withLock { $0 } == 2 }
        // Nobody left since: the burst is over, and nothing waits any more.
        try await waitUntil("the hub waits once more") { clock.sleeperCount == 1 }
        clock.advance(by: WatcherHub.drainTrimInterval)
        try await waitUntil("the drain ends") { clock.sleeperCount == 0 }
        #expect(trims.withLock { $0 } == 2)
    }

    @Test("A watcher that stops reading is dropped at the queue limit and the log says so")
    func stalledWatcherIsDropped() async throws {
        let recorder = LogRecorder()
        let hub = WatcherHub(logger: Logger(label: "hub") { _ in recorder })
        let runtime = GameRuntime(
            database: try AppDatabase.inMemory(builtinPacks: .skip), clock: RuntimeClock(ManualClock()),
            sound: RecordingSoundPlayer(), logger: Logger(label: "runtime") { _ in SwiftLogNoOpLogHandler() })
        let replies = await hub.watch(runtime, for: nil)
        #expect(hub.count == 1)
        // The state and 255 events fill the watcher's queue; the next event overflows it.
        for _ in 1..<ShakyService.watcherQueueLimit { hub.publish(.sensor(present: true, device: nil)) }
        #expect(hub.count == 1)
        hub.publish(.sensor(present: false, device: nil))
        #expect(hub.count == 0)
        #expect(recorder.messages.withLock { $0 } == ["dropped a watcher that stopped reading"])
        var kinds: [ShakyAPI.Event.Kind] = []
        do {
            for try await reply in replies {
                kinds.append(
                    try JSONValue.object(reply.parameters).decode(as: ShakyAPI.GameInterface.WatchReply.self).event.kind
                )
            }
            Issue.record("the stream ended without an error")
        } catch {
            #expect(error is VarlinkBroadcast.Overflow, "\(error)")
        }
        #expect(kinds == [.state] + Array(repeating: .sensor, count: ShakyService.watcherQueueLimit - 1))
    }

    @Test("A crowd of watchers that stop reading is logged once a minute, not once each")
    func stalledWatchersAreLoggedOnce() async throws {
        let recorder = LogRecorder()
        let hub = WatcherHub(logger: Logger(label: "hub") { _ in recorder })
        let runtime = GameRuntime(
            database: try AppDatabase.inMemory(builtinPacks: .skip), clock: RuntimeClock(ManualClock()),
            sound: RecordingSoundPlayer(), logger: Logger(label: "runtime") { _ in SwiftLogNoOpLogHandler() })
        var streams: [AsyncThrowingStream<VarlinkStreamReply, any Error>] = []
        for _ in 0..<5 { streams.append(await hub.watch(runtime, for: nil)) }
        #expect(hub.count == 5)
        for _ in 0..<ShakyService.watcherQueueLimit { hub.publish(.sensor(present: true, device: nil)) }
        #expect(hub.count == 0)
        #expect(recorder.messages.withLock { $0 } == ["dropped a watcher that stopped reading"])
    }
}

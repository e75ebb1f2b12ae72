import Logging
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine
import Varlink

@testable import ShakyDaemon

/// The runtime's alarms: work runs on the given inbox, at the reading, and not at all once cleared.
@Suite struct RuntimeClockTests {
    /// Sets an alarm of `clock` for `reading` on an inbox of its own; returns whether its work ran on the inbox.
    private static func alarmRunsOnTheInbox(_ clock: RuntimeClock, at reading: Duration) async -> Bool {
        let inbox = InboxThread(name: "clock-test")
        let fired = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        let alarm = clock.makeAlarm(inbox) {
            fired.withLock { $0.take() }?.resume(returning: inbox.isCurrent)
        }
        return await withCheckedContinuation { continuation in
            fired.withLock { $0 = continuation }
            inbox.async { alarm.set(at: reading) }
        }
    }

    @Test("On the continuous clock, the inbox thread runs the work itself")
    func continuousClockRunsOnTheInbox() async {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        #expect(await Self.alarmRunsOnTheInbox(clock, at: clock.now()))
    }

    @Test("The daemon's event loop clock reads the continuous clock: its alarm is the inbox thread's own too")
    func eventLoopClockGetsTheInboxAlarm() async {
        let clock = RuntimeClock(EventLoopClock() as any Clock<Duration>)
        #expect(clock.makeAlarm(InboxThread(name: "clock-test")) {} is InboxAlarm)
        #expect(
            RuntimeClock(ManualClock() as any Clock<Duration>).makeAlarm(InboxThread(name: "clock-test")) {}
                is TaskRuntimeAlarm)
        #expect(await Self.alarmRunsOnTheInbox(clock, at: clock.now()))
    }

    @Test("On a manual clock the work waits for the reading, then runs on the inbox; a cleared alarm never fires")
    func manualClockWaitsForTheReading() async throws {
        let manual = ManualClock()
        let clock = RuntimeClock(manual as any Clock<Duration>)
        let inbox = InboxThread(name: "clock-test")
        let runs = Mutex<[String]>([])
        let cleared = clock.makeAlarm(inbox) { runs.withLock { $0.append("cleared") } }
        await inbox.perform {
            cleared.set(at: .seconds(1))
            cleared.clear()
        }
        let ranOnInbox = Task { await Self.alarmRunsOnTheInbox(clock, at: .seconds(2)) }
        while manual.sleeperCount < 1 { await Task.yield() }
        manual.advance(by: .seconds(1))
        #expect(runs.withLock { $0 }.isEmpty)
        manual.advance(by: .seconds(1))
        #expect(await ranOnInbox.value)
        await inbox.perform {}
        #expect(runs.withLock { $0 }.isEmpty)
    }

    @Test("Setting the reading an alarm is set to again changes nothing; a new reading replaces it")
    func settingTheSameReadingAgainFiresOnce() async throws {
        let manual = ManualClock()
        let clock = RuntimeClock(manual as any Clock<Duration>)
        let inbox = InboxThread(name: "clock-test")
        let (firings, sink) = AsyncStream<Duration>.makeStream()
        let alarm = clock.makeAlarm(inbox) { sink.yield(clock.now()) }
        await inbox.perform {
            alarm.set(at: .seconds(1))
            alarm.set(at: .seconds(1))
        }
        while manual.sleeperCount < 1 { await Task.yield() }
        #expect(manual.sleeperCount == 1, "one sleeper for one reading")
        await inbox.perform { alarm.set(at: .seconds(2)) }
        manual.advance(by: .seconds(2))
        var heard = firings.makeAsyncIterator()
        #expect(await heard.next() == .seconds(2))
        await inbox.perform { alarm.set(at: .seconds(3)) }
        manual.advance(by: .seconds(1))
        #expect(await heard.next() == .seconds(3), "the replaced reading of 1 s did not fire on its own")
    }

    @Test("On the continuous clock, each tick of a countdown wakes the inbox thread at most once, never early")
    func continuousAlarmWakesTheInboxOncePerTick() async throws {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        let inbox = InboxThread(name: "clock-test")
        let interval = Duration.milliseconds(10)
        struct Ticks: Sendable {
            var readings: [(set: Duration, fired: Duration)] = []
            var next = Duration.zero
            var alarm: (any RuntimeAlarm)?
            var wakeUpsBefore = 0
        }
        let (done, finished) = AsyncStream<(ticks: Ticks, wakeUps: Int)>.makeStream()
        let state = Mutex(Ticks())
        let alarm = clock.makeAlarm(inbox) {
            let firedAt = clock.now()
            let (alarm, next, count) = state.withLock { state in
                state.readings.append((state.next, firedAt))
                state.next += interval
                return (state.alarm, state.next, state.readings.count)
            }
            // Six ticks, each setting the next one interval on; the sixth sets none.
            if count < 6 { alarm?.set(at: next) } else { finished.yield((state.withLock { $0 }, inbox.wakeUps)) }
        }
        await inbox.perform {
            let first = clock.now() + interval
            state.withLock { $0 = Ticks(next: first, alarm: alarm, wakeUpsBefore: inbox.wakeUps) }
            alarm.set(at: first)
        }
        var results = done.makeAsyncIterator()
        let (ticks, wakeUps) = try #require(await results.next())
        #expect(ticks.readings.count == 6)
        for tick in ticks.readings { #expect(tick.fired >= tick.set, "a tick fired before its reading") }
        // A tick whose deadline passed while the last one was handled (a loaded machine) fires without a wait.
        #expect(wakeUps - ticks.wakeUpsBefore <= 6, "one wake-up per tick at most")
        let inboxAlarm = try #require(alarm as? InboxAlarm)
        #expect(await inbox.perform { !inboxAlarm.isArmed }, "the sixth tick set nothing")
        state.withLock { $0.alarm = nil }
    }

    @Test("Delays convert to nanoseconds without trapping")
    func nanoseconds() {
        #expect(RuntimeClock.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(RuntimeClock.nanoseconds(.nanoseconds(7)) == 7)
        #expect(RuntimeClock.nanoseconds(.seconds(-3)) == 0)
        #expect(RuntimeClock.nanoseconds(.seconds(Int64.max)) == .max)
    }

    @Test("The next tick counts from the reading the engine handled the last one at, however long handing it out took")
    func nextTickCountsFromTheHandledReading() async throws {
        let manual = ManualClock()
        let database = try AppDatabase.inMemory(builtinPacks: .skip)
        try database.createPack(named: "Quiz")
        try database.addQuestion(Question(text: "Largest ocean?", answer: "Pacific", difficulty: .easy), toPack: "Quiz")
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(manual as any Clock<Duration>), sound: RecordingSoundPlayer(),
            logger: Logger(label: "runtime") { _ in SwiftLogNoOpLogHandler() })
        let (events, sink) = AsyncThrowingStream<Duration, any Error>.makeStream()
        let slowed = Mutex(false)
        await runtime.setEventObserver { event in
            guard case .action(.tick(_, let remaining)) = event else { return }
            // The first tick takes half a second to hand out (a watcher may hear it meanwhile).
            let first = slowed.withLock { seen in
                defer { seen = true }
                return !seen
            }
            if first { manual.advance(by: .milliseconds(500)) }
            sink.yield(remaining)
        }
        let ticks = await WatchStream.reading(events)
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, seed: 1))
        try await runtime.makeMove(.nextQuestion)
        manual.advance(by: .seconds(1))
        #expect(try await ticks.next() == .seconds(59))
        // Half a second more reaches the next whole second of the countdown, counted from the first tick's reading.
        manual.advance(by: .milliseconds(500))
        #expect(try await ticks.next() == .seconds(58))
    }
}

import Dispatch
import Logging
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

@testable import ShakyDaemon

/// The runtime's alarms: work runs on the given queue, at the reading, and not at all once cleared.
@Suite struct RuntimeClockTests {
    /// Sets an alarm of `clock` for `reading` on a queue of its own; returns the label of the queue its work ran on.
    private static func alarmQueueLabel(_ clock: RuntimeClock, at reading: Duration) async -> String? {
        let queue = DispatchQueue(label: "runtime-clock-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: queue.label)
        let fired = Mutex<CheckedContinuation<String?, Never>?>(nil)
        let alarm = clock.makeAlarm(queue) {
            fired.withLock { $0.take() }?.resume(returning: DispatchQueue.getSpecific(key: key))
        }
        return await withCheckedContinuation { continuation in
            fired.withLock { $0 = continuation }
            queue.async { alarm.set(at: reading) }
        }
    }

    @Test("On the continuous clock, dispatch runs the work on the queue itself")
    func continuousClockRunsOnTheQueue() async {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        #expect(await Self.alarmQueueLabel(clock, at: clock.now()) == "runtime-clock-test")
    }

    @Test("On a manual clock the work waits for the reading, then runs on the queue; a cleared alarm never fires")
    func manualClockWaitsForTheReading() async throws {
        let manual = ManualClock()
        let clock = RuntimeClock(manual as any Clock<Duration>)
        let queue = DispatchQueue(label: "runtime-clock-test")
        let runs = Mutex<[String]>([])
        let cleared = clock.makeAlarm(queue) { runs.withLock { $0.append("cleared") } }
        queue.sync {
            cleared.set(at: .seconds(1))
            cleared.clear()
        }
        let labelled = Task { await Self.alarmQueueLabel(clock, at: .seconds(2)) }
        while manual.sleeperCount < 1 { await Task.yield() }
        manual.advance(by: .seconds(1))
        #expect(runs.withLock { $0 }.isEmpty)
        manual.advance(by: .seconds(1))
        #expect(await labelled.value == "runtime-clock-test")
        queue.sync {}
        #expect(runs.withLock { $0 }.isEmpty)
    }

    @Test("Setting the reading an alarm is set to again changes nothing; a new reading replaces it")
    func settingTheSameReadingAgainFiresOnce() async throws {
        let manual = ManualClock()
        let clock = RuntimeClock(manual as any Clock<Duration>)
        let queue = DispatchQueue(label: "runtime-clock-test")
        let (firings, sink) = AsyncStream<Duration>.makeStream()
        let alarm = clock.makeAlarm(queue) { sink.yield(clock.now()) }
        queue.sync {
            alarm.set(at: .seconds(1))
            alarm.set(at: .seconds(1))
        }
        while manual.sleeperCount < 1 { await Task.yield() }
        #expect(manual.sleeperCount == 1, "one sleeper for one reading")
        queue.sync { alarm.set(at: .seconds(2)) }
        manual.advance(by: .seconds(2))
        var heard = firings.makeAsyncIterator()
        #expect(await heard.next() == .seconds(2))
        queue.sync { alarm.set(at: .seconds(3)) }
        manual.advance(by: .seconds(1))
        #expect(await heard.next() == .seconds(3), "the replaced reading of 1 s did not fire on its own")
    }

    @Test("On the continuous clock, a wake-up set one interval on from the firing one repeats without a new deadline")
    func continuousAlarmRepeatsTheIntervalItIsSetTo() async throws {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        let queue = DispatchQueue(label: "runtime-clock-test")
        let interval = Duration.milliseconds(2)
        let (done, finished) = AsyncStream<[Duration]>.makeStream()
        let state = Mutex<(fired: [Duration], next: Duration, alarm: (any RuntimeAlarm)?)>(([], .zero, nil))
        let alarm = clock.makeAlarm(queue) {
            let (alarm, next, count) = state.withLock { state in
                state.fired.append(state.next)
                state.next += interval
                return (state.alarm, state.next, state.fired.count)
            }
            // Six ticks, each setting the next one interval on; the sixth sets none.
            if count < 6 { alarm?.set(at: next) } else { finished.yield(state.withLock { $0.fired }) }
        }
        queue.sync {
            let first = clock.now() + interval
            state.withLock { $0 = ([], first, alarm) }
            alarm.set(at: first)
        }
        var results = done.makeAsyncIterator()
        let fired = try #require(await results.next())
        #expect(fired.count == 6)
        let dispatchAlarm = try #require(alarm as? DispatchRuntimeAlarm)
        queue.sync {
            #expect(dispatchAlarm.deadlinesHandedOver == 3, "the first, the repeat set at the first tick, the stop")
            #expect(!dispatchAlarm.isArmed, "the sixth tick set nothing, so the repeat stopped")
        }
        state.withLock { $0.alarm = nil }
    }

    @Test("Delays convert to dispatch's nanoseconds without trapping")
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

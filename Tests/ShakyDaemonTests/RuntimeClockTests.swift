import Dispatch
import Logging
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

@testable import ShakyDaemon

/// The runtime's timers: work runs on the given queue, at the reading, and not at all once cancelled.
@Suite struct RuntimeClockTests {
    /// Runs `wakeUp` of `clock` for `reading` on a queue of its own; returns the label of the queue the work ran on.
    private static func wakeUpQueueLabel(_ clock: RuntimeClock, at reading: Duration) async -> String? {
        let queue = DispatchQueue(label: "runtime-clock-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: queue.label)
        return await withCheckedContinuation { continuation in
            _ = clock.wakeUp(reading, queue) { continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
    }

    @Test("On the continuous clock, dispatch runs the work on the queue itself")
    func continuousClockRunsOnTheQueue() async {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        #expect(await Self.wakeUpQueueLabel(clock, at: clock.now()) == "runtime-clock-test")
    }

    @Test("On a manual clock the work waits for the reading, then runs on the queue; a cancelled timer never runs")
    func manualClockWaitsForTheReading() async throws {
        let manual = ManualClock()
        let clock = RuntimeClock(manual as any Clock<Duration>)
        let queue = DispatchQueue(label: "runtime-clock-test")
        let runs = Mutex<[String]>([])
        let cancelled = clock.wakeUp(.seconds(1), queue) { runs.withLock { $0.append("cancelled") } }
        cancelled.cancel()
        let labelled = Task { await Self.wakeUpQueueLabel(clock, at: .seconds(2)) }
        while manual.sleeperCount < 1 { await Task.yield() }
        manual.advance(by: .seconds(1))
        #expect(runs.withLock { $0 }.isEmpty)
        manual.advance(by: .seconds(1))
        #expect(await labelled.value == "runtime-clock-test")
        queue.sync {}
        #expect(runs.withLock { $0 }.isEmpty)
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

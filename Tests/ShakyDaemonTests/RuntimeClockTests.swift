import Dispatch
import ShakyTesting
import Synchronization
import Testing

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
}

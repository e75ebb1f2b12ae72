import ShakyTesting
import Testing

@Suite struct ManualClockTests {
    @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadline() async throws {
        let clock = ManualClock()
        let woke = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(2)), tolerance: nil)
            return clock.now.offset
        }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await woke.value == .seconds(2))
        #expect(clock.sleeperCount == 0)
    }

    @Test func aPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: .init(offset: .seconds(1)), tolerance: nil)
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func cancellationEndsTheSleep() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(60)), tolerance: nil) }
        while clock.sleeperCount == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}

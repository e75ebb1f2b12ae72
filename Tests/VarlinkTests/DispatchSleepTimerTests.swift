import Testing

@testable import Varlink

/// The idle timer's sleep: ends at its deadline, and a cancelled one ends at once with its timer disarmed and
/// released (`Task.sleep` kept a cancelled sleep's timer until its deadline).
@Suite("Dispatch sleep timer")
struct DispatchSleepTimerTests {
    /// Waits (20 s at most) until `condition` holds: dispatch runs the timer's events on a queue of its own.
    static func eventually(_ what: Comment, _ condition: () -> Bool) async throws {
        let patience = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < patience { await Task.yield() }
        try #require(condition(), what)
    }

    @Test("A cancelled sleep ends at once, its timer disarmed and released")
    func cancelledSleepReleasesItsTimer() async throws {
        var timer = DispatchSleepTimer()
        let sleeper = Task { [timer] in try await timer.sleep(until: .now + .seconds(3600)) }
        try await Self.eventually("armed") { timer.isArmed }

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(!timer.isArmed)
        // Only this test holds the timer once dispatch has let the source's event handler go.
        try await Self.eventually("the source's handler released") { isKnownUniquelyReferenced(&timer) }
    }

    @Test("A task cancelled before it sleeps is refused without arming a timer")
    func alreadyCancelledTaskNeverArms() async throws {
        let timer = DispatchSleepTimer()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timer.sleep(until: .now + .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(!timer.isArmed)
    }

    /// Deadlines already past when the timer is armed: dispatch fires it at once, through the same event as a later
    /// deadline (so no test waits for a clock).
    @Test("Returns at its deadline, which dispatch fires", arguments: [-1.0, 0.0])
    func returnsAtTheDeadline(secondsAhead: Double) async throws {
        let timer = DispatchSleepTimer()
        let deadline = ContinuousClock.now + .seconds(secondsAhead)
        try await timer.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
        #expect(!timer.isArmed)
    }

    @Test("A deadline beyond what nanoseconds can count is armed as never, without trapping")
    func farDeadlineSaturates() async throws {
        let timer = DispatchSleepTimer()
        let sleeper = Task { [timer] in
            try await timer.sleep(until: .now + .seconds(Int64.max / 2))
        }
        try await Self.eventually("armed") { timer.isArmed }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}

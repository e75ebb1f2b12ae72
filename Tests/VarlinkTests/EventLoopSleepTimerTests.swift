import NIOCore
import NIOPosix
import Testing

@testable import Varlink

/// The idle timer's sleep: ends at its deadline, and a cancelled one ends at once with its scheduled task cancelled
/// and released (`Task.sleep` kept a cancelled sleep's timer until its deadline).
@Suite("Event loop sleep timer")
struct EventLoopSleepTimerTests {
    static let loop = MultiThreadedEventLoopGroup.singleton.any()

    /// Waits (20 s at most) until `condition` holds: the loop runs the timer's task on its own thread.
    static func eventually(_ what: Comment, _ condition: () -> Bool) async throws {
        let patience = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < patience { await Task.yield() }
        try #require(condition(), what)
    }

    @Test("A cancelled sleep ends at once, its timer disarmed and released")
    func cancelledSleepReleasesItsTimer() async throws {
        var timer = EventLoopSleepTimer(on: Self.loop)
        let sleeper = Task { [timer] in try await timer.sleep(until: .now + .seconds(3600)) }
        try await Self.eventually("armed") { timer.isArmed }

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(!timer.isArmed)
        // Only this test holds the timer once the loop has let the scheduled task's closure go.
        try await Self.eventually("the scheduled task released") { isKnownUniquelyReferenced(&timer) }
    }

    @Test("A task cancelled before it sleeps is refused without arming a timer")
    func alreadyCancelledTaskNeverArms() async throws {
        let timer = EventLoopSleepTimer(on: Self.loop)
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timer.sleep(until: .now + .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(!timer.isArmed)
    }

    /// Deadlines already past when the timer is armed: the loop runs it at once, through the same scheduled task as a
    /// later deadline (so no test waits for a clock).
    @Test("Returns at its deadline, which the loop runs", arguments: [-1.0, 0.0])
    func returnsAtTheDeadline(secondsAhead: Double) async throws {
        let timer = EventLoopSleepTimer(on: Self.loop)
        let deadline = ContinuousClock.now + .seconds(secondsAhead)
        try await timer.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
        #expect(!timer.isArmed)
    }

    @Test("A deadline beyond what nanoseconds can count is armed as never, without trapping")
    func farDeadlineSaturates() async throws {
        let timer = EventLoopSleepTimer(on: Self.loop)
        let sleeper = Task { [timer] in
            try await timer.sleep(until: .now + .seconds(Int64.max / 2))
        }
        try await Self.eventually("armed") { timer.isArmed }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("The event loop clock reads the continuous clock and sleeps on the loop until its deadline")
    func clockSleepsUntilItsDeadline() async throws {
        let clock = EventLoopClock(on: Self.loop)
        let before = ContinuousClock.now
        #expect(clock.now >= before)
        let deadline = clock.now
        try await clock.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
        let sleeper = Task { try await clock.sleep(until: clock.now + .seconds(3600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}

import Logging
import ShakyDaemon
import ShakyStore
import ShakyTesting
import Synchronization
import Testing
import TriviaEngine

/// A tablet that suspends mid-round (its lid, its power button, its idle timer): the runtime's clock counts the
/// sleep, the players could not play through it, so the countdown is paused as it stood when the system slept.
@Suite struct SystemSleepTests {
    /// A system that sleeps when a test says so, on a manual clock that counts the sleep (as the continuous clock
    /// does).
    final class SleepingSystem: Sendable {
        let clock = ManualClock()
        private let total = Mutex<Duration>(.zero)

        /// The time slept so far.
        var slept: Duration { total.withLock { $0 } }

        /// Sleeps for `duration`: the sleep is counted, then the clock moves.
        func sleep(for duration: Duration) {
            total.withLock { $0 += duration }
            clock.advance(by: duration)
        }
    }

    /// A runtime on a system whose sleep the test decides, with a question open (60 s to find it).
    static func roundInPlay() async throws -> (GameRuntime, ManualClock, SleepingSystem) {
        let system = SleepingSystem()
        let manual = system.clock
        let runtime = GameRuntime(
            database: try EarlyPressRuleTests.database(),
            clock: RuntimeClock(manual, slept: { system.slept }), sound: RecordingSoundPlayer(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        var rules = GameRules()
        rules.indicationTime = .seconds(60)
        _ = try await runtime.newGame(NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, settings: rules))
        _ = try await runtime.makeMove(.nextQuestion)
        return (runtime, manual, system)
    }

    @Test("Ten minutes asleep 20 s into a round: the round is paused with 40 s left, not over")
    func aSuspendPausesTheRunningCountdown() async throws {
        let (runtime, manual, system) = try await Self.roundInPlay()
        manual.advance(by: .seconds(20))
        #expect(try await runtime.status().remaining == .seconds(40))
        // The system sleeps for ten minutes: the continuous clock runs on, and says so.
        system.sleep(for: .seconds(600))
        var status = try await runtime.status()
        #expect(status.phase == .indication)
        #expect(status.isPaused)
        #expect(status.remaining == .seconds(40))
        // Awake, time does not run while paused; resumed, it runs on from 40 s.
        manual.advance(by: .seconds(5))
        #expect(try await runtime.status().remaining == .seconds(40))
        status = try await runtime.makeMove(.resume)
        #expect(status.remaining == .seconds(40) && !status.isPaused)
    }

    @Test("The same ten minutes awake end the round: what the pause is for")
    func tenMinutesAwakeEndTheRound() async throws {
        let (runtime, manual, _) = try await Self.roundInPlay()
        manual.advance(by: .seconds(620))
        let status = try await runtime.status()
        #expect(status.phase != .indication || status.remaining == .zero)
        #expect(!status.isPaused)
    }

    @Test("A sleep while the host has paused changes nothing")
    func aSuspendWhilePausedChangesNothing() async throws {
        let (runtime, _, system) = try await Self.roundInPlay()
        _ = try await runtime.makeMove(.pause)
        system.sleep(for: .seconds(600))
        var status = try await runtime.status()
        #expect(status.isPaused && status.remaining == .seconds(60))
        status = try await runtime.makeMove(.resume)
        #expect(!status.isPaused && status.remaining == .seconds(60))
    }

    @Test("A sleep between two questions is forgotten: the next question runs, and is not paused later for it")
    func aSuspendBetweenQuestionsIsNotHeldAgainstTheNext() async throws {
        let (runtime, manual, system) = try await Self.roundInPlay()
        var status = try await runtime.makeMove(.skipQuestion)
        #expect(status.phase == .roundOver)
        system.sleep(for: .seconds(600))
        status = try await runtime.status()
        #expect(status.phase == .roundOver && !status.isPaused)
        status = try await runtime.makeMove(.nextQuestion)
        #expect(status.phase == .indication && !status.isPaused && status.remaining == .seconds(60))
        manual.advance(by: .seconds(2))
        status = try await runtime.status()
        #expect(!status.isPaused && status.remaining == .seconds(58))
    }

    @Test("The daemon's clock measures no sleep where the system has not slept")
    func continuousClockMeasuresTheSystemsSleep() {
        let clock = RuntimeClock(ContinuousClock() as any Clock<Duration>)
        // The two clocks are read a moment apart: the difference wavers by far less than a millisecond.
        let slept = clock.slept()
        #expect(slept > .milliseconds(-1) && slept < .milliseconds(1))
    }
}

import ShakyProtocol
import Testing

/// The countdown a `Watch(ticks: false)` client runs on its own clock.
@Suite struct WatchCountdownTests {
    static func tick(_ remaining: Double?, phase: String? = "indication") -> ShakyAPI.Event {
        ShakyAPI.Event(kind: .tick, remaining: remaining, phase: phase)
    }

    @Test("A tick starts it: it runs on the client's clock and ticks at each whole second above zero")
    func runsFromATick() {
        var countdown = WatchCountdown()
        #expect(countdown.remaining(at: .seconds(5)) == nil)
        countdown.apply(Self.tick(3.5), at: .seconds(10))
        #expect(countdown.isRunning)
        #expect(countdown.remaining(at: .seconds(10)) == 3.5)
        #expect(countdown.remaining(at: .milliseconds(11_250)) == 2.25)
        #expect(countdown.remaining(at: .seconds(20)) == 0)
        #expect(countdown.nextTick(after: .seconds(10))?.at == .milliseconds(10_500))
        #expect(countdown.nextTick(after: .seconds(10))?.remaining == 3)
        // At a whole second, the next one.
        #expect(countdown.nextTick(after: .milliseconds(10_500))?.at == .milliseconds(11_500))
        #expect(countdown.nextTick(after: .milliseconds(11_600))?.remaining == 1)
        // The last second is the daemon's to end.
        #expect(countdown.nextTick(after: .milliseconds(12_500)) == nil)
        let tick = countdown.tick(remaining: 2)
        #expect(tick.kind == .tick)
        #expect(tick.phase == "indication")
        #expect(tick.remaining == 2)
    }

    @Test("A pause, a phase change, the answer revealed and the game over stop it; a tick while it runs resets it")
    func stops() {
        for kind: ShakyAPI.Event.Kind in [.paused, .phaseChanged, .answerRevealed, .gameOver] {
            var countdown = WatchCountdown()
            countdown.apply(Self.tick(20), at: .zero)
            countdown.apply(ShakyAPI.Event(kind: kind), at: .seconds(1))
            #expect(!countdown.isRunning, "\(kind)")
            #expect(countdown.nextTick(after: .seconds(1)) == nil, "\(kind)")
        }
        var countdown = WatchCountdown()
        countdown.apply(Self.tick(20), at: .zero)
        countdown.apply(ShakyAPI.Event(kind: .hint), at: .seconds(1))
        #expect(countdown.remaining(at: .seconds(2)) == 18)
        countdown.apply(Self.tick(60, phase: "answering(Owls)"), at: .seconds(2))
        #expect(countdown.remaining(at: .seconds(3)) == 59)
        #expect(countdown.tick(remaining: 59).phase == "answering(Owls)")
        // Nothing left, or nonsense, runs nothing.
        for remaining in [0, -3, .nan, .infinity, nil] as [Double?] {
            countdown.apply(Self.tick(remaining), at: .seconds(3))
            #expect(!countdown.isRunning, "\(String(describing: remaining))")
        }
    }

    @Test("The state starts it when a countdown runs unpaused, with the phase as ticks name it")
    func fromTheState() {
        var state = ShakyAPI.State(
            phase: .answering, paused: false, teamUp: "Owls", questionCount: 10, hintsUsed: 0, hintsLeft: 3,
            remaining: 12, teams: [], buzzes: [])
        var countdown = WatchCountdown()
        countdown.apply(ShakyAPI.Event(kind: .state, status: state), at: .seconds(1))
        #expect(countdown.remaining(at: .seconds(2)) == 11)
        #expect(countdown.tick(remaining: 11).phase == "answering(Owls)")
        state.paused = true
        countdown.apply(ShakyAPI.Event(kind: .state, status: state), at: .seconds(2))
        #expect(!countdown.isRunning)
        state.paused = false
        state.phase = .roundOver
        countdown.apply(ShakyAPI.Event(kind: .state, status: state), at: .seconds(2))
        #expect(!countdown.isRunning)
        state.phase = .indication
        countdown.apply(ShakyAPI.Event(kind: .state, status: state), at: .seconds(2))
        #expect(countdown.tick(remaining: 11).phase == "indication")
        countdown.apply(ShakyAPI.Event(kind: .state), at: .seconds(2))
        #expect(!countdown.isRunning)
    }
}

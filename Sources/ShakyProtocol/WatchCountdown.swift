/// The countdown a client of `Watch(ticks: false)` runs on its own clock: set by the ticks the daemon sends when the
/// countdown changes otherwise than by running (and by the state), stopped by what stops it (a pause, a phase
/// change, the answer revealed, the game over), and ticking each whole second in between, as the daemon's own ticks
/// would.
///
/// Time is the client's, injected (`now`, any clock that counts from a fixed start), so tests need no real time.
public struct WatchCountdown: Equatable, Sendable {
    /// A countdown that runs: its phase as the daemon names it (`indication`, `answering(Owls)`; `nil` when not
    /// said), and the client's reading when it runs out.
    private struct Running: Equatable, Sendable {
        var phase: String?
        var deadline: Duration
    }

    private var running: Running?

    /// No countdown.
    public init() {}

    /// Whether a countdown runs.
    public var isRunning: Bool { running != nil }

    /// Takes `event`, which arrived at `now`.
    public mutating func apply(_ event: ShakyAPI.Event, at now: Duration) {
        switch event.kind {
        case .tick:
            start(phase: event.phase, remaining: event.remaining, at: now)
        case .state:
            guard let status = event.status, !status.paused else {
                running = nil
                return
            }
            switch status.phase {
            case .indication:
                start(phase: "indication", remaining: status.remaining, at: now)
            case .answering:
                start(phase: status.teamUp.map { "answering(\($0))" }, remaining: status.remaining, at: now)
            case .ready, .roundOver, .gameOver:
                running = nil
            }
        case .paused, .phaseChanged, .answerRevealed, .gameOver:
            // A phase change starts a new countdown, if any, with the tick that follows it.
            running = nil
        default:
            break
        }
    }

    /// The seconds left at `now`, `nil` when no countdown runs.
    public func remaining(at now: Duration) -> Double? {
        guard let running else { return nil }
        let (seconds, attoseconds) = (running.deadline - now).components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The next whole second the countdown reaches after `now` (above zero: the end is the daemon's to say), and
    /// the client's reading when it does.
    public func nextTick(after now: Duration) -> (at: Duration, remaining: Double)? {
        // In whole units of time, not floating point: the tick falls exactly on its second.
        guard let running, running.deadline - now > .seconds(1) else { return nil }
        let (seconds, attoseconds) = (running.deadline - now).components
        let mark = (attoseconds > 0 ? seconds + 1 : seconds) - 1
        return (running.deadline - .seconds(mark), Double(mark))
    }

    /// The tick the daemon would send with `remaining` seconds left.
    public func tick(remaining: Double) -> ShakyAPI.Event {
        ShakyAPI.Event(kind: .tick, remaining: remaining, phase: running?.phase)
    }

    private mutating func start(phase: String?, remaining: Double?, at now: Duration) {
        guard let remaining, remaining.isFinite, remaining > 0 else {
            running = nil
            return
        }
        running = Running(phase: phase, deadline: now + .seconds(min(remaining, 86_400)))
    }
}

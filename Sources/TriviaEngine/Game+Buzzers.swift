import ShakyCore

/// A team's button press as the game takes it.
public struct TeamPress: Equatable, Sendable {
    /// The team whose button it is.
    public var team: String
    /// When it happened, as a reading of the runtime's clock (worked out from the kernel's event time).
    public var pressedAt: Duration
    /// The kernel's CLOCK_MONOTONIC event time: presses are ranked by it, and presses in the same
    /// microsecond are ordered by the game's seeded generator.
    public var kernelTime: Duration

    /// Creates a press.
    public init(team: String, pressedAt: Duration, kernelTime: Duration) {
        self.team = team
        self.pressedAt = pressedAt
        self.kernelTime = kernelTime
    }
}

/// What became of one press.
public enum PressOutcome: Equatable, Sendable {
    /// It was the team's buzz, at this place in the buzz order.
    case buzzed(order: Int)
    /// It came before the question opened and is ignored.
    case early
    /// The team is locked out until this clock reading (it pressed early with the lock-out rule on).
    case lockedOut(until: Duration)
    /// The game refused it (the team already buzzed, the game is paused…).
    case refused(GameError)
}

/// The early-press rule and the lock-outs it has imposed: off by default (an early press is only ignored);
/// with ``lockout`` set, a team that presses before the question opens cannot buzz until that long after
/// its press, as buzzer systems do.
///
/// It lives beside the game in the runtime rather than in the snapshot: lock-outs last seconds, and a
/// restored game starts paused.
public struct EarlyPressRule: Equatable, Sendable {
    /// How long an early press locks the team out; `nil` turns the rule off.
    public var lockout: Duration?
    /// Team key → clock reading until which it is locked out.
    private var lockedUntil: [String: Duration] = [:]

    /// Creates the rule, off unless `lockout` is given.
    public init(lockout: Duration? = nil) {
        self.lockout = lockout.flatMap { $0 > .zero ? $0 : nil }
    }

    /// Forgets every lock-out (a new game).
    public mutating func reset() {
        lockedUntil = [:]
    }

    fileprivate mutating func lock(_ teamKey: String, pressedAt: Duration) -> Duration? {
        guard let lockout else { return nil }
        let until = pressedAt + lockout
        lockedUntil[teamKey] = max(until, lockedUntil[teamKey] ?? until)
        return until
    }

    fileprivate func lockedUntil(_ teamKey: String, at reading: Duration) -> Duration? {
        guard let until = lockedUntil[teamKey], until > reading else { return nil }
        return until
    }
}

extension Game {
    /// Takes a batch of button presses (already held for reordering) at clock reading `now`.
    ///
    /// Presses are ranked by kernel time; presses in the same microsecond are put in an order drawn from the
    /// game's seeded generator, so a replay of the same game and presses decides the same. Each press is then
    /// handled at its own time (`pressedAt`, never before the game's last event), so buzz times and the
    /// countdown come from when the button went down, not from when the daemon read it. A press before the
    /// question opened is ignored or, under `rule`, locks its team out. Presses never throw: each gets an
    /// outcome. The actions end with the game brought to `now`.
    public mutating func handlePresses(
        _ presses: [TeamPress], rule: inout EarlyPressRule, at now: Duration
    ) -> (actions: [GameAction], outcomes: [PressOutcome]) {
        let ranked = rankPresses(presses)
        let wasRunning = isCountdownRunning
        var actions: [GameAction] = []
        var outcomes = Array(repeating: PressOutcome.early, count: presses.count)
        var reading = lastUpdate
        for index in ranked {
            let press = presses[index]
            reading = min(now, max(reading, press.pressedAt))
            let key = TeamNameKey.of(press.team)
            let sinceOpening = round.map { $0.elapsed + (press.pressedAt - lastUpdate) } ?? .zero
            let early = phase == .ready || phase == .roundOver || (phase == .indication && sinceOpening < .zero)
            if early {
                outcomes[index] = rule.lock(key, pressedAt: press.pressedAt).map { .lockedOut(until: $0) } ?? .early
                continue
            }
            if let until = rule.lockedUntil(key, at: reading) {
                outcomes[index] = .lockedOut(until: until)
                continue
            }
            do {
                var result = try handle(.buzz(team: press.team), at: reading)
                // The game had already moved past the press (a tick was handled while the press was held
                // for reordering): date the buzz back to when the button went down.
                backdateLastBuzz(by: reading - press.pressedAt, in: &result)
                actions += result.filter { !$0.isWakeRequest }
                let order = result.compactMap { action -> Int? in
                    if case .buzzed(_, let order, _, _) = action { return order }
                    return nil
                }.first
                outcomes[index] = order.map { .buzzed(order: $0) } ?? .early
            } catch {
                outcomes[index] = .refused(error)
            }
        }
        // `.clockAdvanced` is always accepted.
        let final = (try? handle(.clockAdvanced, at: max(now, lastUpdate))) ?? []
        actions += final
        if wasRunning, !isCountdownRunning, !final.contains(where: \.isWakeRequest) {
            actions.append(.cancelWake)
        }
        return (actions, outcomes)
    }

    /// The indices of `presses` in buzz order: by kernel time, same-microsecond ties in a seeded order.
    mutating func rankPresses(_ presses: [TeamPress]) -> [Int] {
        let sorted = presses.indices.sorted { (presses[$0].kernelTime, $0) < (presses[$1].kernelTime, $1) }
        var ranked: [Int] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            let microsecond = Self.microsecond(presses[sorted[start]].kernelTime)
            while end < sorted.count, Self.microsecond(presses[sorted[end]].kernelTime) == microsecond { end += 1 }
            var tied = Array(sorted[start..<end])
            if tied.count > 1 { random.shuffle(&tied) }
            ranked += tied
            start = end
        }
        return ranked
    }

    /// Moves the buzz just recorded `lag` earlier (no further back than the question's opening), in the round,
    /// the team's statistics and the `.buzzed` action. Hints given after the button went down (while the press
    /// was held for reordering) do not count against it: its points are those of before them.
    private mutating func backdateLastBuzz(by lag: Duration, in actions: inout [GameAction]) {
        guard lag > .zero, var round, let last = round.buzzes.indices.last else { return }
        let shift = min(lag, round.buzzes[last].elapsed)
        guard shift > .zero else { return }
        round.buzzes[last].elapsed -= shift
        let pressedAt = round.buzzes[last].elapsed
        if let hintsAtBuzz = round.buzzes[last].hintsUsed, let times = round.hintTimes {
            let later = times.suffix(hintsAtBuzz).filter { $0 > pressedAt }.count
            if later > 0 {
                round.buzzes[last].hintsUsed = hintsAtBuzz - later
                round.buzzes[last].points = settings.points(afterHints: hintsAtBuzz - later)
            }
        }
        self.round = round
        if let index = teams.firstIndex(where: { $0.name == round.buzzes[last].team }) {
            teams[index].totalBuzzTime -= shift
        }
        actions = actions.map { action in
            guard case .buzzed(let team, let order, let elapsed, let remaining) = action else { return action }
            return .buzzed(team: team, order: order, elapsed: elapsed - shift, indicationRemaining: remaining)
        }
    }

    private static func microsecond(_ time: Duration) -> Int64 {
        let (seconds, attoseconds) = time.components
        return seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000
    }
}

extension GameAction {
    /// Whether this is a `.wake` or `.cancelWake`, which only the last step of a batch may ask for.
    var isWakeRequest: Bool {
        switch self {
        case .wake, .cancelWake: true
        default: false
        }
    }
}

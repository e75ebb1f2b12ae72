extension Game {
    /// Moves the countdown forward to `now`: ticks for whole seconds passed, and every deadline that
    /// fell due, each handled at its own instant (so a late wake-up catches up completely).
    /// Paused or timer-less phases only take `now` as the new reference.
    mutating func advance(to now: Duration, actions: inout [GameAction]) {
        var elapsed = max(.zero, now - lastUpdate)
        lastUpdate = now
        guard isCountdownRunning, var round else { return }
        round.hintCooldownRemaining = max(.zero, round.hintCooldownRemaining - elapsed)
        self.round = round
        while isCountdownRunning, var round = self.round, let remaining = round.remaining {
            if elapsed >= remaining {
                round.elapsed += remaining
                round.remaining = .zero
                self.round = round
                elapsed -= remaining
                reachDeadline(actions: &actions)
            } else {
                let left = remaining - elapsed
                round.elapsed += elapsed
                round.remaining = left
                self.round = round
                if Self.wholeSecondsRoundedUp(left) < Self.wholeSecondsRoundedUp(remaining) {
                    actions.append(.tick(phase: phase, remaining: left))
                }
                return
            }
        }
    }

    /// What happens when the running countdown reaches zero.
    private mutating func reachDeadline(actions: inout [GameAction]) {
        switch phase {
        case .indication:
            endIndication(actions: &actions)
        case .answering:
            judge(given: nil, correct: false, actions: &actions)
        case .ready, .roundOver, .gameOver:
            break
        }
    }

    /// How long until the next whole second of the countdown or its deadline, whichever is first.
    var nextWakeDelay: Duration? {
        guard isCountdownRunning, let remaining = round?.remaining, remaining > .zero else { return nil }
        let nextMark = Duration.seconds(max(0, Self.wholeSecondsRoundedUp(remaining) - 1))
        return remaining - nextMark
    }

    /// The countdown as shown: whole seconds, rounded up.
    static func wholeSecondsRoundedUp(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}

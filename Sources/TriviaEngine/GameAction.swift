/// What the runtime should do or tell the watchers after an event.
///
/// The runtime keeps at most one pending wake-up: each `.wake` replaces the previous one,
/// `.cancelWake` drops it. When the wake-up is due it sends `.clockAdvanced`.
public enum GameAction: Codable, Equatable, Sendable {
    /// A question opened: its number (1-based) of `total`, text, scramble, worth and indication time.
    case roundStarted(
        number: Int, total: Int, question: String, display: ScrambleDisplay, points: Int, indicationTime: Duration)
    /// A hint fixed a letter: the new arrangement, what the question is worth now, and hints used so far.
    case hintRevealed(display: ScrambleDisplay, points: Int, hintsUsed: Int, source: HintSource)
    /// A team buzzed: its place in the buzz order (1-based), time since the question opened, and the
    /// indication time left after any cut.
    case buzzed(team: String, order: Int, elapsed: Duration, indicationRemaining: Duration)
    /// A team must answer now, within `answerTime`.
    case teamUp(team: String, answerTime: Duration)
    /// A team's answer was judged; `given` is nil when its time ran out.
    case judged(team: String, given: String?, correct: Bool, pointsAwarded: Int)
    /// The question is over: the answer, the team that got it, if any, and how it ended. An overrule after the end
    /// reveals it again with the team that now has it.
    case answerRevealed(answer: String, winner: String?, end: RoundEnd)
    /// The host overruled the last judgement: `team`'s answer `given` (nil when its time had run out) now
    /// counts as `correct`, its score changed by `pointsDelta` to `newScore`.
    case judgementOverruled(team: String, given: String?, correct: Bool, pointsDelta: Int, newScore: Int)
    /// The host took back `team`'s buzz on the open question.
    case buzzUndone(team: String)
    /// The host changed a team's score.
    case scoreAdjusted(team: String, delta: Int, reason: String, newScore: Int)
    /// A whole second of the countdown passed; `remaining` is the exact time left in `phase`
    /// (show it rounded up to whole seconds).
    case tick(phase: GamePhase, remaining: Duration)
    /// The game moved to another phase.
    case phaseChanged(GamePhase)
    /// The countdown froze.
    case paused
    /// The countdown runs again.
    case resumed
    /// The game ended with this result.
    case gameOver(GameResult)
    /// The host corrected the game after it was over (an overrule or a score adjustment): this is its
    /// result now, replacing the one `gameOver` gave.
    case resultCorrected(GameResult)
    /// Send `.clockAdvanced` after this long (measured from the `now` of the event just handled).
    case wake(after: Duration)
    /// No wake-up is needed any more.
    case cancelWake

    /// Whether this action records progress worth a saved snapshot. Ticks and wake-ups only mark time:
    /// a runtime that saves when any action of an event is snapshot-worthy loses at most a few seconds
    /// of countdown on a crash, and a restored game is paused anyway.
    public var isSnapshotWorthy: Bool {
        switch self {
        case .tick, .wake, .cancelWake: false
        default: true
        }
    }
}

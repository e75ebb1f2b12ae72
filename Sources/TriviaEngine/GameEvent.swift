/// Something that happens to a game: a player's or host's move, or the runtime's wake-up.
public enum GameEvent: Codable, Equatable, Sendable {
    /// The host opens the next question (from `ready` or `roundOver`); after the last question it ends
    /// the game.
    case nextQuestion
    /// The host gives up on the open question: no points, the answer is revealed.
    case skipQuestion
    /// The host freezes the running countdown.
    case pause
    /// The host restarts the frozen countdown with exactly the time it had left.
    case resume
    /// The host corrects a team's score by `delta` points (positive or negative), saying why; also once
    /// the game is over, when the result is recomputed.
    case adjustScore(team: String, delta: Int, reason: String)
    /// The host ends the game now; an open question scores nothing.
    case endGame
    /// A hint is asked for, by a shake of the device or by hand.
    case hint(source: HintSource)
    /// A team signals that it knows the answer.
    case buzz(team: String)
    /// A team gives its answer; an empty answer is a pass and is judged wrong.
    case answer(team: String, text: String)
    /// The host reverses the last judgement on the question in play or just over: a wrong answer
    /// (or a timeout) becomes right and ends the question with that team's points; a right answer
    /// becomes wrong, takes the points back, and play goes on as after a wrong answer. Once the game
    /// is over it reverses the last judgement of the last question played; the result is recomputed and
    /// the game stays over.
    case overrule
    /// The host takes back a team's buzz on the open question (pressed by mistake), as long as the
    /// team has not been judged yet; its buzz statistics are taken back too.
    case undoBuzz(team: String)
    /// The runtime's wake-up (after a `.wake` action) or any other reading of the clock; always legal.
    case clockAdvanced
}

extension GameEvent {
    /// Whether the game takes this event once it is over: the clock, and the host's corrections
    /// (`.overrule`, `.adjustScore`), which recompute the result.
    public var isTakenAfterGameOver: Bool {
        switch self {
        case .clockAdvanced, .overrule, .adjustScore: true
        default: false
        }
    }
}

/// Where a hint request came from.
public enum HintSource: String, Codable, Equatable, Sendable, CaseIterable {
    /// A shake of the accelerometer.
    case shake
    /// A manual request (host or client command).
    case manual
}

/// Why an event is not allowed now. The game is left exactly as it was.
public enum GameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The game is over; only `.clockAdvanced` is still taken.
    case gameIsOver
    /// The countdown is paused; resume first.
    case gamePaused
    /// Hints and buzzes are only taken while a question is open (the indication phase).
    case roundNotOpen(phase: GamePhase)
    /// Skipping needs a question in play (indication or answering).
    case noQuestionInPlay(phase: GamePhase)
    /// The next question cannot open while this one is still in play.
    case questionInPlay(phase: GamePhase)
    /// No team of that name plays in this game.
    case unknownTeam(String)
    /// The team has already buzzed for this question.
    case alreadyBuzzed(team: String)
    /// Answers are taken once the indication phase is over, in buzz order.
    case notAnsweringYet
    /// Another team is up to answer.
    case notYourTurn(team: String, upNow: String)
    /// No answer is expected in this phase.
    case noAnswerExpected(phase: GamePhase)
    /// This question has had its maximum number of hints.
    case hintLimitReached(maximum: Int)
    /// Another hint would leave the answer plain to see.
    case hintWouldRevealAnswer
    /// The previous hint was too recent; wait `remaining`. No hint was spent.
    case hintCoolingDown(remaining: Duration)
    /// Pausing needs a running countdown (indication or answering).
    case nothingToPause(phase: GamePhase)
    /// The game is paused already.
    case alreadyPaused
    /// The game is not paused.
    case notPaused
    /// A score adjustment of zero changes nothing.
    case zeroAdjustment
    /// A score adjustment is larger than `Game.largestAdjustment` either way.
    case adjustmentTooLarge(Int)
    /// A score adjustment needs a reason.
    case missingReason

    /// A message for the host or players.
    public var description: String {
        switch self {
        case .gameIsOver:
            "the game is over"
        case .gamePaused:
            "the game is paused; resume it first"
        case .roundNotOpen(let phase):
            "hints and buzzes are only taken while a question is open (now: \(phase))"
        case .noQuestionInPlay(let phase):
            "there is no question in play to skip (now: \(phase))"
        case .questionInPlay(let phase):
            "the current question is still in play (now: \(phase)); skip it first"
        case .unknownTeam(let name):
            "no team called \"\(name)\" plays in this game"
        case .alreadyBuzzed(let team):
            "\(team) has already buzzed for this question"
        case .notAnsweringYet:
            "answers are taken once buzzing is over, in buzz order"
        case .notYourTurn(let team, let upNow):
            "it is \(upNow)'s turn to answer, not \(team)'s"
        case .noAnswerExpected(let phase):
            "no answer is expected now (now: \(phase))"
        case .hintLimitReached(let maximum):
            "this question has had its \(maximum) hint\(maximum == 1 ? "" : "s")"
        case .hintWouldRevealAnswer:
            "another hint would give the whole answer away"
        case .hintCoolingDown(let remaining):
            "the last hint was too recent; wait \(remaining)"
        case .nothingToPause(let phase):
            "there is no countdown to pause (now: \(phase))"
        case .alreadyPaused:
            "the game is paused already"
        case .notPaused:
            "the game is not paused"
        case .zeroAdjustment:
            "a score adjustment of 0 changes nothing"
        case .adjustmentTooLarge(let delta):
            "a score adjustment must be between -\(Game.largestAdjustment) and \(Game.largestAdjustment), not \(delta)"
        case .missingReason:
            "a score adjustment needs a reason"
        }
    }
}

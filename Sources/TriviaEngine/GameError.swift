import ShakyCore

/// Why an event is not allowed now. The game is left exactly as it was.
public enum GameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The game is over; only `.clockAdvanced` and the host's corrections (`.overrule`, `.adjustScore`)
    /// are still taken.
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
    /// In classic mode, answers are taken from the first team to buzz; no team has buzzed yet.
    case nobodyHasBuzzed
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
    /// A score adjustment's reason is longer than `Game.longestAdjustmentReason` characters.
    case reasonTooLong(characters: Int)
    /// A score adjustment's reason holds more than `Game.mostCodePointsInText` Unicode code points (marks stacked
    /// on its letters).
    case reasonTooComplex(codePoints: Int)
    /// The team has had `Game.mostAdjustmentsPerTeam` score adjustments in this game already.
    case adjustmentLimitReached(team: String)
    /// There is no judgement on the question in play or just over (or, once the game is over, on the last
    /// question played) to overrule.
    case nothingToOverrule
    /// A buzz is only taken back while its question is in play (indication or answering).
    case buzzNotUndoable(phase: GamePhase)
    /// The team has not buzzed on the question in play.
    case noBuzzToUndo(team: String)
    /// The team's answer has been judged already; overrule the judgement instead.
    case buzzAlreadyJudged(team: String)
    /// The answer is longer than `Game.longestGivenAnswer` characters; nothing was judged.
    case answerTooLong(characters: Int)
    /// The answer holds more than `Game.mostCodePointsInText` Unicode code points (marks stacked on its letters);
    /// nothing was judged.
    case answerTooComplex(codePoints: Int)

    /// A duration as a person reads it: tenths of a second, rounded up ("0.3 s").
    public static func seconds(_ duration: Duration) -> String {
        if duration < .zero { return "-" + seconds(.zero - duration) }
        let (whole, atto) = duration.components
        let tenths = whole * 10 + (atto + 99_999_999_999_999_999) / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A message for the host or players.
    public var description: String {
        switch self {
        case .gameIsOver:
            "the game is over; only an overrule or a score adjustment can still change it, and a new game starts "
                + "with `shaky new --team NAME --team NAME`"
        case .gamePaused:
            "the game is paused; resume it first (shaky resume, or p in shaky play)"
        case .roundNotOpen(let phase):
            "hints and buzzes are only taken while a question is open (now: \(phase.partyDescription))"
        case .noQuestionInPlay(let phase):
            "there is no question in play to skip (now: \(phase.partyDescription))"
        case .questionInPlay(let phase):
            "the current question is still in play (now: \(phase.partyDescription)); skip it first"
        case .unknownTeam(let name):
            "no team called “\(name)” plays in this game"
        case .alreadyBuzzed(let team):
            "\(team) has already buzzed for this question"
        case .notAnsweringYet:
            "nobody is up to answer yet: in buzz-order mode teams answer once buzzing is over (time up or every team buzzed), in buzz order"
        case .nobodyHasBuzzed:
            "nobody has buzzed yet: in classic mode the first team to buzz answers at once"
        case .notYourTurn(let team, let upNow):
            "it is \(upNow.possessive) turn to answer, not \(team.possessive)"
        case .noAnswerExpected(let phase):
            "no answer is expected now (now: \(phase.partyDescription))"
        case .hintLimitReached(0):
            "this game takes no hints: its rules allow none"
        case .hintLimitReached(let maximum):
            "this question has had its \(maximum) hint\(maximum == 1 ? "" : "s")"
        case .hintWouldRevealAnswer:
            "another hint would give the whole answer away"
        case .hintCoolingDown(let remaining):
            "the last hint was too recent; wait \(Self.seconds(remaining))"
        case .nothingToPause(let phase):
            "there is no countdown to pause (now: \(phase.partyDescription))"
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
        case .reasonTooLong(let characters):
            "a score adjustment's reason is at most \(Game.longestAdjustmentReason) characters, not \(characters)"
        case .reasonTooComplex(let codePoints):
            "a score adjustment's reason holds \(codePoints) Unicode code points (marks stacked on its letters); at most "
                + "\(Game.mostCodePointsInText) are allowed"
        case .adjustmentLimitReached(let team):
            "\(team) has had \(Game.mostAdjustmentsPerTeam) score adjustments in this game, the most a team may have"
        case .nothingToOverrule:
            // Also before the first question and after a game whose last question was skipped: no "this question".
            "no answer has been judged on the question in play or the last one played, so there is nothing to overrule"
        case .buzzNotUndoable(let phase):
            "a buzz can only be taken back while its question is in play (now: \(phase.partyDescription))"
        case .noBuzzToUndo(let team):
            "\(team) has not buzzed on this question"
        case .buzzAlreadyJudged(let team):
            "\(team.possessive) answer has been judged already; overrule the judgement instead"
        case .answerTooLong(let characters):
            "an answer is at most \(Game.longestGivenAnswer) characters, not \(characters); nothing was judged"
        case .answerTooComplex(let codePoints):
            "an answer holds \(codePoints) Unicode code points (marks stacked on its letters); at most "
                + "\(Game.mostCodePointsInText) are allowed; nothing was judged"
        }
    }
}

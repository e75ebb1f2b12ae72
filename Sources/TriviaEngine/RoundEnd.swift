/// How a question ended: what the room is told besides the answer and the team that got it.
public enum RoundEnd: String, Codable, Equatable, Hashable, Sendable, CaseIterable {
    /// A team answered right; the round's winner says which.
    case answered
    /// The time to buzz ran out with no team left to answer (none buzzed, or every one that did had its turn and
    /// buzzing reopened until the time was gone).
    case timeUp
    /// Every team that buzzed answered wrong or ran out of its time to answer, and no team was left that could buzz.
    case wrongAnswers
    /// The host skipped the question.
    case skipped
    /// The host ended the game while the question was in play.
    case gameEnded
    /// The host overruled a judgement and that settled the question: a wrong answer (or a timeout) now counts as
    /// right (the round's winner), or a right one now counts as wrong and no team is left to answer.
    case overruled
}

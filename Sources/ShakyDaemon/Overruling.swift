/// A judgement the host reversed (``GameRuntime/overrule()``): whose, what it counts as now, and the change of score.
public struct Overruling: Sendable, Equatable {
    /// The team whose answer was judged.
    public var team: String
    /// What the team had answered; nil when its time had run out (no answer was given).
    public var given: String?
    /// Whether the answer counts as right now.
    public var correct: Bool
    /// The change of the team's score.
    public var pointsDelta: Int
    /// The team's score now.
    public var newScore: Int

    /// Whether the judgement reversed was a time-out: no answer had been given.
    public var timedOut: Bool { given == nil }
}

/// What the host may do to a score by hand, shared by the game's rules and the command line that checks first.
public enum ScoreAdjustmentRules {
    /// The largest score adjustment, either way, that the host may make in one step.
    public static let largest = 1000
}

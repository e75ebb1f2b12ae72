/// The pack `shaky demo` plays: a game drawn from it alone is a demonstration, which the history marks
/// and the leaderboard leaves out.
public enum DemoPack {
    /// The demo pack's name.
    public static let name = "Shaky Demo"
}

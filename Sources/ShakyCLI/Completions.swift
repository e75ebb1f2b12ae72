/// Shell commands that completion scripts run to offer names the daemon knows.
enum Completions {
    /// Prints the packs' names, one per line (nothing when the daemon cannot be reached).
    static let packNames = "shaky pack list --names 2>/dev/null"
    /// Prints the teams of the game in play, one per line (nothing when there is none).
    static let teamNames = "shaky status --team-names 2>/dev/null"
}

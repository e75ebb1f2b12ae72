/// What the environment says about the terminal the clients write to: one rule for `shaky`'s colours, the board's
/// layout and `play`'s screen.
public enum TerminalCapabilities {
    /// Whether a terminal of type `term` (the `TERM` variable) takes escape sequences (colours, cursor movements):
    /// not a `dumb` one (Emacs' shell, a serial console), nor one whose type is unset or empty, which is what a
    /// service or a cron job gets.
    public static func takesEscapeSequences(term: String?) -> Bool {
        guard let term, !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// Whether `NO_COLOR` asks for no colour: set to anything but the empty string (no-color.org).
    public static func coloursRefused(environment: [String: String]) -> Bool {
        !(environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Whether output to a terminal in `environment` is coloured: its type takes escape sequences and `NO_COLOR`
    /// does not refuse them.
    public static func coloursWanted(environment: [String: String]) -> Bool {
        takesEscapeSequences(term: environment["TERM"]) && !coloursRefused(environment: environment)
    }
}

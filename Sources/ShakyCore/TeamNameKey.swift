import Foundation

/// What makes two team names one team, in a game and in its records alike: the name trimmed of whitespace
/// (Foundation's `.whitespacesAndNewlines`, which takes a zero-width space too), in NFC, with full Unicode case
/// folding. "OWLS" is "Owls", "STRASSE" is "Straße" and "FFI" is "ﬃ"; accents still make another team ("Cafe" is not
/// "Café").
///
/// The history groups a team's games by this key and records a game only when its teams' keys are all set and all
/// different, so a game checks its names by the same key when it starts, and matches the names in moves by it.
public enum TeamNameKey {
    /// The key of `name`: empty when the name has nothing but whitespace.
    public static func of(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
    }
}

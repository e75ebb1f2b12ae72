import Foundation

/// Text folded for comparison as people mean "the same words": case and diacritics ignored, whitespace runs as one
/// space. Question search compares it ("ha noi" finds "Hà Nội", "MALMO" finds "Malmö"), and so do the checks for a
/// question asked twice (an import's repeated rows, a game's draw from several packs).
///
/// Folding is Unicode's compatibility mapping (NFKC: "ǅemal" is "džemal", "ＰＡＲＩＳ" is "PARIS"), Foundation's case and
/// diacritic folding, plus the letters that have no decomposition (ø, æ, đ, ð, þ, ł, œ, ı), so "tromso" matches
/// "Tromsø", "da nang" matches "Đà Nẵng" and "dzemal" matches "ǅemal". The store keeps folded copies of every
/// question (its search text): changing this needs a migration that recomputes them.
public enum TextFold {
    /// Letters that folding keeps but a reader types without their stroke or ligature.
    private static let extraFolds: [Character: String] = [
        "ø": "o", "æ": "ae", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "œ": "oe", "ı": "i",
    ]

    /// `text` folded for comparison: lowercase, no diacritics, whitespace runs collapsed to one space.
    public static func fold(_ text: String) -> String {
        // ASCII has no diacritics, and its case folding is lowercasing: no Foundation pass needed.
        // Compatibility forms first (NFKC): the digraph "ǅ" is "dž", a ligature its letters, fullwidth letters ASCII.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased()
            : text.precomposedStringWithCompatibilityMapping.folding(
                options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var result = ""
        var pendingSpace = false
        for character in folded {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            if let replacement = extraFolds[character] {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The one of `names` that `typed` names when case, accents and spacing are set aside ("zoe" for "Zoë", "soiree"
    /// for "Soirée", as a keyboard without them types it), or `nil` when none or several do.
    public static func onlyMatch(for typed: String, among names: [String]) -> String? {
        let folded = fold(typed)
        let matches = names.filter { fold($0) == folded }
        return matches.count == 1 ? matches[0] : nil
    }
}

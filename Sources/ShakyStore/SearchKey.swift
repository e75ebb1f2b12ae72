import Foundation

/// The folded form of text that question search compares.
///
/// Search is case- and diacritic-insensitive: "ha noi" finds "Hà Nội", "MALMO" finds "Malmö".
/// SQLite's `LIKE` folds ASCII only, so the store keeps a folded copy of each question's text,
/// answer and alternates in the `question.searchText` column, written by the app on every insert and
/// update, and searches it with `instr()` for a folded query. Folding is Foundation's case and
/// diacritic folding, plus the letters that have no decomposition (ø, æ, đ, ð, þ, ł, œ, ı), so
/// "tromso" finds "Tromsø" and "da nang" finds "Đà Nẵng".
///
/// Changing `fold(_:)` changes what is stored: a later migration must then recompute `searchText`.
enum SearchKey {
    /// Letters that folding keeps but a reader types without their stroke or ligature.
    private static let extraFolds: [Character: String] = [
        "ø": "o", "æ": "ae", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "œ": "oe", "ı": "i",
    ]

    /// `text` folded for comparison: lowercase, no diacritics, whitespace runs collapsed to one space.
    static func fold(_ text: String) -> String {
        // ASCII has no diacritics, and its case folding is lowercasing: no Foundation pass needed.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased() : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
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

    /// The words of a search query, folded; each must occur in the search text with its spaces removed,
    /// so "hanoi" finds "ha noi".
    static func words(_ query: String) -> [String] {
        fold(query).split(separator: " ").map(String.init)
    }

    /// The stored search text of a question: its folded text, answer and alternates, one per line.
    static func searchText(text: String, answer: String, alternates: [String]) -> String {
        ([text, answer] + alternates).map(fold).joined(separator: "\n")
    }
}

import Foundation
import ShakyCore

/// The folded form of text that question search compares.
///
/// Search is case- and diacritic-insensitive: "ha noi" finds "Hà Nội", "MALMO" finds "Malmö".
/// SQLite's `LIKE` folds ASCII only, so the store keeps a folded copy of each question's text,
/// answer and alternates in the `question.searchText` column, written by the app on every insert and
/// update, and searches it with `instr()` for a folded query (``TextFold/fold(_:)``).
///
/// Changing `TextFold.fold(_:)` changes what is stored: a later migration must then recompute `searchText`.
enum SearchKey {
    /// The words of a search query, folded; each must occur in the search text with its spaces removed,
    /// so "hanoi" finds "ha noi".
    static func words(_ query: String) -> [String] {
        TextFold.fold(query).split(separator: " ").map(String.init)
    }

    /// The stored search text of a question: its folded text, answer and alternates, one per line.
    static func searchText(text: String, answer: String, alternates: [String]) -> String {
        ([text, answer] + alternates).map(TextFold.fold).joined(separator: "\n")
    }
}

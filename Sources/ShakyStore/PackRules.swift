import Foundation
import ShakyCore
import TriviaEngine

/// The limits a pack and its questions must respect, checked before anything is written.
///
/// The schema enforces the same limits (CHECK constraints), so a value that passes here is never
/// refused by SQLite. Text is stored trimmed and in Unicode NFC; lengths are counted in characters of
/// the NFC form, which is what SQLite's `length()` counts (one per letter for letters with a
/// precomposed form, such as "ø", "é" or Vietnamese "ệ").
public enum PackRules {
    /// The longest answer (and alternate answer), in characters.
    public static let maximumAnswerLength = 40
    /// The longest question text, in characters.
    public static let maximumTextLength = 500
    /// The longest pack name, in characters.
    public static let maximumPackNameLength = 60
    /// The most alternate answers a question may have (after empty and repeated ones are dropped): each given
    /// answer is checked against every one.
    public static let maximumAlternates = 20
    /// The largest pack file the daemon imports, in bytes, and the largest a pack may be as a JSON file (its
    /// largest export): so every pack the daemon holds exports, in every format, to a file it imports back.
    public static let largestPackFile = 16 << 20
    /// The character that separates alternate answers in a CSV field; it cannot appear in an alternate.
    public static let alternateSeparator: Character = "|"

    /// The alternates written in one field, `Roma|Rom`: none for an empty field, and a blank one for each empty place
    /// between separators (`Roma||Rom`, `Roma|`), so that its warning counts it as it counts `Roma| |Rom`.
    static func alternates(splitting text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: alternateSeparator, omittingEmptySubsequences: false).map(String.init)
    }

    /// A rule broken by one field of a question or pack.
    struct Violation: Error, Equatable {
        /// The field at fault: `question`, `answer`, `difficulty`, `alternates` or `name`.
        var field: String
        /// What is wrong, in words.
        var problem: String
    }

    /// `text` trimmed and in NFC.
    static func normalized(_ text: String) -> String {
        // Swift's own trimming of the same set as Foundation's `.whitespacesAndNewlines` (Unicode White_Space),
        // and no NFC pass for ASCII, which is NFC already: an import of thousands of questions stays quick.
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        let trimmed = String(scalars[first...last])
        return trimmed.utf8.allSatisfy { $0 < 0x80 } ? trimmed : trimmed.precomposedStringWithCanonicalMapping
    }

    /// The length SQLite's `length()` gives for normalized text.
    static func length(_ normalizedText: String) -> Int {
        normalizedText.unicodeScalars.count
    }

    /// How long `normalizedText` is, as its limit counts: in characters, or, when marks stacked on its letters make
    /// it longer than it looks, in code points with its characters beside them ("one letter is 101 characters long"
    /// read as a mistake).
    static func lengthSaid(_ normalizedText: String) -> String {
        let codePoints = length(normalizedText)
        let characters = normalizedText.count
        guard codePoints != characters else { return "\(characters) characters long" }
        return "\(codePoints) Unicode code points long (\(characters) \(characters == 1 ? "character" : "characters"), "
            + "each mark stacked on a letter counting)"
    }

    /// A valid pack name made from `name`, or the rule it breaks.
    static func packName(_ name: String) throws(Violation) -> String {
        let result = normalized(name)
        // A name of zero-width spaces or joiners alone is as empty on every screen.
        if result.withoutCharactersThatDoNotShow.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            throw Violation(field: "name", problem: "the name is empty")
        }
        if length(result) > maximumPackNameLength {
            throw Violation(field: "name", problem: "the name is longer than \(maximumPackNameLength) characters")
        }
        if result.contains(where: \.isNewline) {
            throw Violation(field: "name", problem: "the name holds a line break")
        }
        if let problem = TerminalText.problem(in: result) {
            throw Violation(field: "name", problem: "the name \(problem)")
        }
        return result
    }

    /// The difficulty of a question whose file leaves it out or empty, as `shaky pack add` without --difficulty.
    public static let defaultDifficulty = Difficulty.medium

    /// The difficulty named by `raw` (case and surrounding spaces ignored; nothing or only spaces is
    /// ``defaultDifficulty``), or the rule it breaks. Every pack file format reads its difficulties here.
    static func difficulty(_ raw: String?) throws(Violation) -> Difficulty {
        let written = normalized(raw ?? "")
        if written.isEmpty { return defaultDifficulty }
        guard let difficulty = Difficulty(rawValue: written.lowercased()) else {
            throw Violation(
                field: "difficulty", problem: "unknown difficulty \(quoted(written)) (use easy, medium or hard)")
        }
        return difficulty
    }

    /// The longest value, in characters, that a problem quotes; a longer one is cut, so that a report naming
    /// many bad values stays short.
    static let longestQuotedValue = 40

    /// `value` between quotes, cut to ``longestQuotedValue`` characters (and "…") when it is longer.
    static func quoted(_ value: String) -> String {
        let cut = value.count > longestQuotedValue ? value.prefix(longestQuotedValue - 1) + "…" : Substring(value)
        return "“\(cut)”"
    }

    /// `question` trimmed, normalized and checked; alternates that are empty or repeat the answer are dropped.
    ///
    /// A tab in the text becomes a space: a terminal moves it to its next tab stop, which no layout of the board or
    /// of `shaky play` can know, and in a question it meant a space. A CRLF line break becomes a line feed, as a CSV
    /// file's does, so a pack written on Windows reads the same as JSON.
    static func question(_ question: Question) throws(Violation) -> Question {
        let text = normalized(TerminalText.withLineFeeds(question.text).replacingOccurrences(of: "\t", with: " "))
        if text.isEmpty {
            throw Violation(field: "question", problem: "the question text is empty")
        }
        if length(text) > maximumTextLength {
            throw Violation(
                field: "question",
                problem: "the question text is \(lengthSaid(text)); the limit is \(maximumTextLength)")
        }
        if let problem = TerminalText.problem(in: text, allowingLineBreaks: true) {
            throw Violation(field: "question", problem: "the question text \(problem)")
        }
        let answer = try self.answer(question.answer, field: "answer")
        var alternates: [String] = []
        for raw in question.alternates {
            let alternate = normalized(raw)
            if alternate.isEmpty { continue }
            if alternate.contains(alternateSeparator) {
                throw Violation(
                    field: "alternates",
                    problem:
                        "the alternate \(quoted(alternate)) holds “\(alternateSeparator)”, which separates alternates")
            }
            _ = try self.answer(alternate, field: "alternates")
            let seen = ([answer] + alternates).contains { $0.caseInsensitiveCompare(alternate) == .orderedSame }
            if seen { continue }
            // Refused as soon as there is one too many, so that what is compared stays short whatever the input.
            if alternates.count == maximumAlternates {
                throw Violation(
                    field: "alternates",
                    problem: "a question has at most \(maximumAlternates) alternate answers")
            }
            alternates.append(alternate)
        }
        return Question(text: text, answer: answer, alternates: alternates, difficulty: question.difficulty)
    }

    private static func answer(_ raw: String, field: String) throws(Violation) -> String {
        let answer = normalized(raw)
        let what = field == "answer" ? "the answer" : "the alternate \(quoted(answer))"
        if answer.isEmpty {
            throw Violation(field: field, problem: "the answer is empty")
        }
        // Its letters and digits are what a round scrambles and shows: without any, no game would ever draw it.
        if field == "answer", !answer.contains(where: Scramble.isScrambled) {
            throw Violation(
                field: field,
                problem: "the answer \(quoted(answer)) has no letter or digit to scramble; spell it out in words "
                    + "(an emoji or a sign may stay beside them)")
        }
        if length(answer) > maximumAnswerLength {
            throw Violation(
                field: field,
                problem:
                    "\(what) is \(lengthSaid(answer)); the limit is \(maximumAnswerLength) (spaces and signs count)")
        }
        if answer.contains(where: \.isNewline) {
            throw Violation(field: field, problem: "\(what) holds a line break")
        }
        if let problem = TerminalText.problem(in: answer) {
            throw Violation(field: field, problem: "\(field == "answer" ? "the answer" : "an alternate") \(problem)")
        }
        return answer
    }
}

import ArgumentParser
import ShakyProtocol

/// A question as `shaky pack add` and `shaky pack edit` take it.
struct QuestionOptions: ParsableArguments {
    @Option(name: .customLong("question"), help: ArgumentHelp("The question's text.", valueName: "text"))
    var text: String

    @Option(help: ArgumentHelp("The answer (at most 40 characters, spaces and signs included).", valueName: "text"))
    var answer: String

    @Option(
        name: .customLong("alternate"),
        help: ArgumentHelp("Another answer that counts as right (repeat the option).", valueName: "text"))
    var alternates: [String] = []

    @Option(help: "How hard the question is")
    var difficulty: ShakyAPI.Question.Difficulty = .medium

    /// The question as the daemon takes it.
    var question: ShakyAPI.Question {
        ShakyAPI.Question(
            text: text, answer: answer, alternates: alternates.isEmpty ? nil : alternates, difficulty: difficulty)
    }

    func validate() throws {
        guard !text.trimmingSpaces.isEmpty else { throw ValidationError("--question must not be empty.") }
        guard answer.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw ValidationError("--answer needs at least one letter or digit.")
        }
        // Its length is the daemon's to check, by its one rule (characters of the trimmed NFC form, spaces and signs
        // included): counted here as letters, an answer of 21 letters and 20 hyphens passed and was then refused.
    }
}

extension ShakyAPI.StoredQuestion {
    /// The alternates of `given` that the daemon left out of this question, as it stored it: those repeating its
    /// answer or an alternate before them, ignoring case (`STRASSE` for `Straße`), or blank. An import warns of
    /// them; `pack add` and `pack edit` get no warnings in their reply, so the client finds them.
    func alternatesLeftOut(of given: [String]) -> [String] {
        var kept = alternates.map { $0.lowercased() }
        var left: [String] = []
        for alternate in given {
            // As the daemon writes it: spaces trimmed and each run of them made one.
            let written = alternate.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
            if let index = kept.firstIndex(of: written) {
                kept.remove(at: index)
            } else {
                left.append(alternate)
            }
        }
        return left
    }
}

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

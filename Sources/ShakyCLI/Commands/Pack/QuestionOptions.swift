import ArgumentParser
import ShakyProtocol

/// A question as `shaky pack add` and `shaky pack edit` take it.
struct QuestionOptions: ParsableArguments {
    @Option(name: .customLong("question"), help: ArgumentHelp("The question's text.", valueName: "text"))
    var text: String

    @Option(help: ArgumentHelp("The answer (at most 40 letters).", valueName: "text"))
    var answer: String

    @Option(
        name: .customLong("alternate"),
        help: ArgumentHelp("Another answer that counts as right (repeat the option).", valueName: "text"))
    var alternates: [String] = []

    @Option(help: "How hard the question is.")
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
        let letters = answer.filter { $0.isLetter || $0.isNumber }.count
        guard letters <= 40 else {
            throw ValidationError("--answer has \(letters) letters; at most 40 fit on the board.")
        }
    }
}

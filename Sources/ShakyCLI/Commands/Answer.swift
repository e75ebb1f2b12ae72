import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky answer`: the team up gives its answer.
    struct Answer: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give the answer of the team that is up.",
            discussion: """
                The words after the team make the answer, so quotes are optional: \
                `shaky answer Owls snow leopard`. Near misses and missing accents count as right unless \
                the game's rules say otherwise.
                """)

        @Argument(help: "The team that answers (it must be up).")
        var team: String

        @Argument(help: ArgumentHelp("The answer; several words are joined by spaces.", valueName: "answer"))
        var words: [String] = []

        @OptionGroup var global: GlobalOptions

        /// The answer as one string.
        var answer: String { words.joined(separator: " ") }

        func validate() throws {
            guard !answer.trimmingSpaces.isEmpty else {
                throw ValidationError("Say the answer after the team: shaky answer \(team) WORDS…")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let reply = try await client.game.answer(team: team, answer: answer)
            try global.emit(reply, on: console) { style in
                let verdict = reply.correct ? "Right!" : "Wrong."
                return style.strong(verdict) + "\n" + TextRenderer.status(reply.status, style: style)
            }
        }
    }
}

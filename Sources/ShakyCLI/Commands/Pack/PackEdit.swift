import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack edit`.
    struct Edit: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a question in a pack of your own.",
            discussion: """
                The question with that id (see `shaky pack show` or `shaky pack search`) keeps everything \
                you do not give. --alternate replaces all the alternates; --no-alternates removes them.

                EXAMPLES:
                Make question 12 hard, changing nothing else:
                  shaky pack edit 12 --difficulty hard
                """)

        @Argument(help: "The question's id.", transform: DecimalText.wholeNumberArgument)
        var id: Int

        @Option(name: .customLong("question"), help: ArgumentHelp("The new text.", valueName: "text"))
        var text: String?

        @Option(
            help: ArgumentHelp("The new answer (at most 40 characters, spaces and signs included).", valueName: "text"))
        var answer: String?

        @Option(
            name: .customLong("alternate"),
            help: ArgumentHelp(
                "Another answer that counts as right (repeat the option; replaces the alternates).",
                valueName: "text"))
        var alternates: [String] = []

        @Flag(help: "Remove every alternate.")
        var noAlternates = false

        @Option(help: "The new difficulty.")
        var difficulty: ShakyAPI.Question.Difficulty?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if text == nil, answer == nil, alternates.isEmpty, !noAlternates, difficulty == nil {
                throw ValidationError(
                    "Say what to change: --question, --answer, --alternate, --no-alternates or --difficulty.")
            }
            if noAlternates, !alternates.isEmpty {
                throw ValidationError("--alternate and --no-alternates contradict each other; give one.")
            }
            if let text, text.trimmingSpaces.isEmpty { throw ValidationError("--question must not be empty.") }
            // Its length is the daemon's to check, by the one rule `pack add` and imports meet too.
            if let answer, !answer.contains(where: { $0.isLetter || $0.isNumber }) {
                throw ValidationError("--answer needs at least one letter or digit.")
            }
        }

        /// `current` with the fields given on the command line replaced.
        func merged(into current: ShakyAPI.StoredQuestion) -> ShakyAPI.Question {
            let newAlternates = noAlternates ? [] : alternates.isEmpty ? current.alternates : alternates
            return ShakyAPI.Question(
                text: text ?? current.text, answer: answer ?? current.answer,
                alternates: newAlternates.isEmpty ? nil : newAlternates, difficulty: difficulty ?? current.difficulty)
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let current = try await Self.question(id: id, client: client)
            let reply = try await client.packs.editQuestion(id: id, question: merged(into: current))
            try global.emit(reply, on: console) { _ in
                "Changed " + TextRenderer.question(reply.question, showingPack: true)
            }
            Shaky.Pack.Add.printWarnings(reply.warnings, on: console)
        }

        /// The question `id` as it is now, looked up in the editable packs; one of a built-in pack is refused as
        /// `shaky pack remove` refuses it, naming the pack.
        static func question(id: Int, client: ShakyClient) async throws -> ShakyAPI.StoredQuestion {
            let packs = try await client.packs.list()
            for pack in packs.sorted(by: { !$0.builtin && $1.builtin }) {
                guard let found = try await client.packs.show(name: pack.name).questions.first(where: { $0.id == id })
                else { continue }
                if pack.builtin { throw CommandFailure(ShakyClientError.packReadOnly(pack.name)) }
                return found
            }
            throw CommandFailure(
                "there is no question \(id) (`shaky pack show PACK` lists a pack's questions with their ids)")
        }
    }
}

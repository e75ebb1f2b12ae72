import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack add`.
    struct Add: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a question to a pack of your own.",
            discussion: """
                The answer has at most 40 characters (spaces and signs count), and at least one letter or digit. Built-in packs are read-only: \
                add to a copy (`shaky pack duplicate`).

                EXAMPLES:
                An easy question, whose answer may also be given as “Bengal tiger”:
                  shaky pack add "My animals" --question "Striped cat?" --answer Tiger \\
                    --alternate "Bengal tiger" --difficulty easy
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var pack: String

        @OptionGroup var question: QuestionOptions
        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let reply = try await client.packs.addQuestion(pack: pack, question: question.question)
            try global.emit(reply, on: console) { _ in
                "Added " + TextRenderer.question(reply.question, showingPack: true)
            }
            Self.printWarnings(reply.warnings, on: console)
        }
    }
}

extension Shaky.Pack.Add {
    /// Prints the daemon's warnings of the question it stored (the alternates it left out) on standard error, as
    /// `pack import` prints an import's, so that `--json` output stays one document. An older daemon sends none.
    static func printWarnings(_ warnings: [String]?, on console: any Console) {
        for warning in warnings ?? [] { console.printError("shaky: warning: \(warning)") }
    }
}

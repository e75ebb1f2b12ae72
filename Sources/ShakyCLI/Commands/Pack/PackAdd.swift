import ArgumentParser
import ShakyCore
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
            let stored = try await client.packs.addQuestion(pack: pack, question: question.question)
            try global.emit(ShakyAPI.PacksInterface.AddQuestionReply(question: stored), on: console) { _ in
                "Added " + TextRenderer.question(stored, showingPack: true)
            }
            Self.warn(ofAlternatesLeftOut: stored.alternatesLeftOut(of: question.alternates), on: console)
        }
    }
}

extension Shaky.Pack.Add {
    /// Says which alternates given were left out, on standard error (so that `--json` output stays one document).
    static func warn(ofAlternatesLeftOut left: [String], on console: any Console) {
        guard !left.isEmpty else { return }
        let named = left.map { "“\(TerminalText.printable($0))”" }.spokenList("and")
        console.printError(
            "shaky: warning: the \(left.count == 1 ? "alternate" : "alternates") \(named) "
                + "\(left.count == 1 ? "repeats" : "repeat") the answer or an alternate before it, ignoring case, or "
                + "\(left.count == 1 ? "is" : "are") blank; left out")
    }
}

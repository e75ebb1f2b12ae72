import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack edit`.
    struct Edit: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace a question in a pack of your own.",
            discussion: """
                The question with that id (see `shaky pack show` or `shaky pack search`) becomes the one \
                given: text, answer, alternates and difficulty (medium when not given).
                """)

        @Argument(help: "The question's id.")
        var id: Int

        @OptionGroup var question: QuestionOptions
        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let stored = try await client.packs.editQuestion(id: id, question: question.question)
            try global.emit(ShakyAPI.PacksInterface.AddQuestionReply(question: stored), on: console) { _ in
                "Changed " + TextRenderer.question(stored, showingPack: true)
            }
        }
    }
}

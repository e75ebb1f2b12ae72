import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack add`.
    struct Add: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a question to a pack of your own.",
            discussion: """
                Example: shaky pack add "My animals" --question "What big cat has stripes?" --answer Tiger \
                --difficulty easy
                """)

        @Argument(help: "The pack.")
        var pack: String

        @OptionGroup var question: QuestionOptions
        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let stored = try await client.packs.addQuestion(pack: pack, question: question.question)
            try global.emit(ShakyAPI.PacksInterface.AddQuestionReply(question: stored), on: console) { _ in
                "Added " + TextRenderer.question(stored, showingPack: true)
            }
        }
    }
}

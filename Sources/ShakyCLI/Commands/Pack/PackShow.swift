import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack show`.
    struct Show: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a pack and its questions, with their ids.",
            discussion: """
                Each question with its id, answer, alternates and difficulty. `shaky pack edit` and \
                `shaky pack remove` take the id.

                EXAMPLES:
                  shaky pack show Animals
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var name: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let details = try await client.packs.show(name: name)
            try global.emit(details, on: console) { _ in TextRenderer.packDetails(details) }
        }
    }
}

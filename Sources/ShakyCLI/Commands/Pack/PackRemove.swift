import ArgumentParser
import ShakyCore
import ShakyProtocol
import Varlink

extension Shaky.Pack {
    /// `shaky pack remove`.
    struct Remove: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a question from a pack of your own.",
            discussion: """
                The question's id is in `shaky pack show` and `shaky pack search`. Built-in packs are read-only.

                EXAMPLES:
                  shaky pack search stripes --pack "My animals"
                  shaky pack remove 12
                """)

        @Argument(help: "The question's id (see `shaky pack show`).", transform: DecimalText.wholeNumberArgument)
        var id: Int

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            try await client.packs.deleteQuestion(id: id)
            try global.emit(VarlinkEmptyParameters(), on: console) { _ in "Removed question #\(id)." }
        }
    }
}

import ArgumentParser
import ShakyProtocol
import Varlink

extension Shaky.Pack {
    /// `shaky pack delete`.
    struct Delete: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a pack of your own and its questions.",
            discussion: """
                Built-in packs cannot be deleted. Export a pack first to keep a copy.

                EXAMPLES:
                  shaky pack export "Pub night" --output pub-night.json
                  shaky pack delete "Pub night"
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var name: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            try await client.packs.delete(name: name)
            try global.emit(VarlinkEmptyParameters(), on: console) { _ in "Deleted pack “\(name)”." }
        }
    }
}

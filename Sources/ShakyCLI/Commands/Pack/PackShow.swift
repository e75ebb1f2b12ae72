import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack show`.
    struct Show: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a pack and its questions, with their ids.")

        @Argument(help: "The pack.")
        var name: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let details = try await client.packs.show(name: name)
            try global.emit(details, on: console) { _ in TextRenderer.packDetails(details) }
        }
    }
}

import ArgumentParser
import ShakyProtocol
import Varlink

extension Shaky.Pack {
    /// `shaky pack delete`.
    struct Delete: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a pack of your own and its questions.",
            discussion: "Export it first to keep a copy: `shaky pack export NAME --output FILE`.")

        @Argument(help: "The pack.")
        var name: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            try await client.packs.delete(name: name)
            try global.emit(VarlinkEmptyParameters(), on: console) { _ in "Deleted pack “\(name)”." }
        }
    }
}

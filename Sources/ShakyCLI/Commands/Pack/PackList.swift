import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack list`.
    struct List: ClientCommand {
        static let configuration = CommandConfiguration(abstract: "List every pack with its question counts.")

        @Flag(help: .hidden)
        var names = false

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let packs = try await client.packs.list()
            if names {
                // For shell completion: one name per line.
                for pack in packs { console.print(pack.name) }
                return
            }
            try global.emit(ShakyAPI.PacksInterface.ListReply(packs: packs), on: console) { _ in
                TextRenderer.packs(packs)
            }
        }
    }
}

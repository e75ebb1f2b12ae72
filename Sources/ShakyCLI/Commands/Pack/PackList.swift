import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack list`.
    struct List: ClientCommand {
        static let configuration = CommandConfiguration(abstract: "List every pack with its question counts.")

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let packs = try await client.packs.list()
            try global.emit(ShakyAPI.PacksInterface.ListReply(packs: packs), on: console) { _ in
                TextRenderer.packs(packs)
            }
        }
    }
}

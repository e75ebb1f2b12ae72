import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack list`.
    struct List: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every pack with its question counts.",
            discussion: """
                Each pack with how many questions it has of each difficulty; built-in packs are marked, and are \
                read-only. `shaky pack show NAME` lists a pack's questions. In a terminal the table fits its \
                width: long names are cut short with “…”, and a narrow one leaves off the counts by difficulty \
                (piped or redirected, and with --json, every row is whole).
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let packs = try await client.packs.list()
            try global.emit(ShakyAPI.PacksInterface.ListReply(packs: packs), on: console) { _ in
                TextRenderer.packs(packs, width: console.width)
            }
            // The host's own packs missing after a damaged database was set aside at start: they are in that file.
            if packs.allSatisfy(\.builtin), !global.json, let damaged = try? await client.settings.get().damagedDatabase
            {
                console.print(TextRenderer.damagedDatabaseNote(damaged, holding: "the packs imported before"))
            }
        }
    }
}

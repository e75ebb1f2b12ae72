import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack rename`.
    struct Rename: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a pack of your own.",
            discussion: """
                Built-in packs keep their names: duplicate one to have a copy to name. The new name must not be \
                another pack's, ignoring case.

                EXAMPLES:
                  shaky pack rename "Pub night" "Pub quiz"
                """)

        @Argument(help: "The pack.", completion: Completions.packNames)
        var name: String

        @Argument(help: "Its new name.")
        var newName: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !newName.trimmingSpaces.isEmpty else { throw ValidationError("The new name must not be empty.") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let pack = try await client.packs.rename(name: name, newName: newName)
            try global.emit(ShakyAPI.PacksInterface.CreateReply(pack: pack), on: console) { _ in
                "Renamed to " + TextRenderer.pack(pack)
            }
        }
    }
}

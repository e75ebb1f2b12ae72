import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack duplicate`.
    struct Duplicate: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a pack, built-in or not, into a new pack you can edit.",
            discussion: """
                The copy has every question of the pack, with ids of its own.

                EXAMPLES:
                  shaky pack duplicate Animals "My animals"
                """)

        @Argument(help: "The pack to copy.", completion: Completions.packNames)
        var name: String

        @Argument(help: "The copy's name.")
        var newName: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !newName.trimmingSpaces.isEmpty else { throw ValidationError("The copy needs a name.") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let pack = try await client.packs.duplicate(name: name, newName: newName)
            try global.emit(ShakyAPI.PacksInterface.CreateReply(pack: pack), on: console) { _ in
                "Created " + TextRenderer.pack(pack)
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack create`.
    struct Create: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty pack.",
            discussion: """
                Add questions with `shaky pack add`, or import a whole file with `shaky pack import`.

                EXAMPLES:
                  shaky pack create "Pub night"
                """)

        @Argument(help: "The new pack's name.")
        var name: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !name.trimmingSpaces.isEmpty else { throw ValidationError("The pack needs a name.") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let pack = try await client.packs.create(name: name)
            try global.emit(ShakyAPI.PacksInterface.CreateReply(pack: pack), on: console) { _ in
                "Created " + TextRenderer.pack(pack)
            }
        }
    }
}

import ArgumentParser

extension Shaky {
    /// `shaky pack`: the quiz packs and their questions.
    struct Pack: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, edit, import and export the quiz packs.",
            discussion: """
                Built-in packs are read-only: `shaky pack duplicate Animals "My animals"` makes an \
                editable copy. Pack names are unique ignoring case.
                """,
            subcommands: [
                List.self, Show.self, Create.self, Rename.self, Delete.self, Duplicate.self, Add.self, Edit.self,
                Remove.self, Search.self, Import.self, Export.self,
            ])
    }
}

import ArgumentParser

extension Shaky {
    /// `shaky pack`: the quiz packs and their questions.
    struct Pack: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, edit, import and export the quiz packs.",
            discussion: """
                A pack is a named list of questions, each with its answer, its alternates and its difficulty. \
                Built-in packs are read-only: duplicate one to edit a copy. Pack names are unique ignoring case.

                EXAMPLES:
                An editable copy of a built-in pack, with one more question:
                  shaky pack duplicate Animals "My animals"
                  shaky pack add "My animals" --question "What cat has stripes?" --answer Tiger
                A pack from a spreadsheet saved as CSV, and back to a file:
                  shaky pack import "Pub night.csv"
                  shaky pack export "Pub night" --output pub-night.json
                """,
            subcommands: [
                List.self, Show.self, Create.self, Rename.self, Delete.self, Duplicate.self, Add.self, Edit.self,
                Remove.self, Search.self, Import.self, Export.self,
            ])
    }
}

import ArgumentParser
import ShakyCore
import ShakyProtocol
import Varlink

extension Shaky.History {
    /// `shaky history delete ID`.
    struct Delete: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a finished game from the history and the leaderboard.",
            discussion: """
                The game's number is the one `shaky history` shows. The leaderboard is counted again without the \
                game; it cannot be brought back.

                EXAMPLES:
                  shaky history delete 3
                """)

        @Argument(help: "The game's number, as `shaky history` shows it.", transform: DecimalText.wholeNumberArgument)
        var id: Int

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            try await client.game.deleteHistory(id: id)
            try global.emit(VarlinkEmptyParameters(), on: console) { _ in "Deleted game \(id) from the history." }
        }
    }
}

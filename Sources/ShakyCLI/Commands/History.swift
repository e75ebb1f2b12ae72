import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky history`: finished games.
    struct History: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "List finished games, newest first, or delete one.",
            discussion: """
                Games are listed in the order they finished (whatever the clock said then), with times in \
                local time. Demo games, games replaced by a new one and games nobody scored in are marked \
                and left off the leaderboard; `shaky history delete ID` removes a game altogether. In a \
                terminal the table fits its width: long scores, winners and notes are cut short with “…”, \
                and a narrow one leaves off the notes, then the winners (piped or redirected, and with --json, \
                every row is whole).

                EXAMPLES:
                  shaky history --limit 5
                  shaky history delete 3
                """,
            subcommands: [Delete.self])

        @Option(
            help: ArgumentHelp("Show at most this many games, 1 or more (default: 20).", valueName: "count"),
            transform: DecimalText.wholeNumberArgument)
        var limit: Int?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit).") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let games = try await client.game.history(limit: limit)
            try global.emit(ShakyAPI.GameInterface.HistoryReply(games: games), on: console) { _ in
                TextRenderer.history(games, width: console.width)
            }
            // No game in the history of a database set aside at start is not no game ever.
            if games.isEmpty, !global.json, let damaged = try? await client.settings.get().damagedDatabase {
                console.print(TextRenderer.damagedDatabaseNote(damaged, holding: "the games finished before"))
            }
        }
    }
}

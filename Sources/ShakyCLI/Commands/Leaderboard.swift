import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky leaderboard`: teams across finished games.
    struct Leaderboard: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rank teams across finished games, by wins, then points.",
            discussion: """
                Counts the games of `shaky history`, except demo games, games replaced by a new one and games \
                nobody scored in; a team is the same team in every game it played under the same name.
                """)

        @Option(
            help: ArgumentHelp("Show at most this many teams, 1 or more (default: every team).", valueName: "count"),
            transform: DecimalText.wholeNumberArgument)
        var limit: Int?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit).") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let entries = try await client.game.leaderboard(limit: limit)
            try global.emit(ShakyAPI.GameInterface.LeaderboardReply(entries: entries), on: console) { _ in
                TextRenderer.leaderboard(entries)
            }
        }
    }
}

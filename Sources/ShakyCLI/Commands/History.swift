import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky history`: finished games.
    struct History: ClientCommand {
        static let configuration = CommandConfiguration(abstract: "List finished games, newest first.")

        @Option(help: "Show at most this many games.")
        var limit: Int?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit).") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let games = try await client.game.history(limit: limit)
            try global.emit(ShakyAPI.GameInterface.HistoryReply(games: games), on: console) { _ in
                TextRenderer.history(games)
            }
        }
    }
}

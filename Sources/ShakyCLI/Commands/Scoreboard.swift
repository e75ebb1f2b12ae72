import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky scoreboard`: the teams by points.
    struct Scoreboard: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the teams by points, with ranks, right answers, hints and buzz times.",
            discussion: """
                Teams with the same points share a rank: 1, 1, 3. On a terminal narrower than the table, the last \
                columns are left off and long names cut short with “…”; through a pipe the table is whole.
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let standings = try await client.game.scoreboard()
            try global.emit(ShakyAPI.GameInterface.ScoreboardReply(standings: standings), on: console) { _ in
                TextRenderer.scoreboard(standings, width: console.width)
            }
        }
    }
}

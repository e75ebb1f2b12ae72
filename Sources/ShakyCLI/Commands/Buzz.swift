import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky buzz`: a team indicates it knows the answer.
    struct Buzz: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Buzz for a team: it knows the answer.",
            discussion: """
                Each team buzzes at most once per question. The first to buzz answers first, the others \
                in buzz order if it is wrong.
                """)

        @Argument(help: "The team that buzzes.", completion: Completions.teamNames)
        var team: String

        /// Words after the team: a name of several words typed without quotes, or a second team.
        @Argument(help: .private)
        var extraWords: [String] = []

        func validate() throws {
            try Shaky.refuseWordsAfterTeam(extraWords, team: team, command: "shaky buzz")
        }

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status: ShakyAPI.State
            do {
                status = try await client.game.buzz(team: team)
            } catch {
                throw await Shaky.namingTheTeams(error, team: team, client: client)
            }
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky.Judge {
    /// `shaky judge undo-buzz TEAM`.
    struct UndoBuzz: ClientCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo-buzz", abstract: "Take back a team's buzz before it answers.",
            discussion: """
                For a buzz pressed by mistake: the team has not buzzed after all, and may buzz again. When no buzz \
                is left, buzzing goes on with the time the first buzz cut. Taken back while another team answers, \
                buzzing opens again, with the time it had left, once the teams still in line have answered wrong; \
                if that time had run out, the team cannot buzz on this question unless every buzz is taken back.

                EXAMPLES:
                  shaky judge undo-buzz Foxes
                """)

        @Argument(help: "The team whose buzz is taken back.", completion: Completions.teamNames)
        var team: String

        /// Words after the team: a name of several words typed without quotes, or a second team.
        @Argument(help: .private)
        var extraWords: [String] = []

        func validate() throws {
            try Shaky.refuseWordsAfterTeam(extraWords, team: team, command: "shaky judge undo-buzz")
        }

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status: ShakyAPI.State
            do {
                status = try await client.game.undoBuzz(team: team)
            } catch {
                throw await Shaky.namingTheTeams(error, team: team, client: client)
            }
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers clear`.
    struct Clear: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Release the buttons of one team, or of every team; stops a joining.",
            discussion: """
                Buttons stay assigned from game to game until cleared. A joining still waiting for presses stops.

                EXAMPLES:
                  shaky buzzers clear Foxes
                  shaky buzzers clear
                """)

        @Argument(help: "The team (default: every team).", completion: Completions.teamNames)
        var team: String?

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let cleared = try await client.buzzers.clear(team: team)
            try global.emit(ShakyAPI.BuzzersInterface.ClearReply(cleared: cleared), on: console) { _ in
                "Released \(cleared) button\(cleared == 1 ? "" : "s")" + (team.map { " of \($0)." } ?? ".")
            }
            // A team with no button is most likely a typo: the teams that have some are named.
            guard let team, cleared == 0, let list = try? await client.buzzers.list() else { return }
            var teams: [String] = []
            for assignment in list.assignments where !teams.contains(assignment.team) { teams.append(assignment.team) }
            let others =
                teams.isEmpty
                ? "no team has a button"
                : "the teams with buttons are " + teams.map { "“\(TerminalText.printable($0))”" }.spokenList("and")
            console.printError("shaky: warning: no button was given to “\(TerminalText.printable(team))”; \(others)")
        }
    }
}

import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `error`, or when the daemon refused a call for `team` and no team of the game is called so, the refusal with
    /// the game's teams, and the one meant when `team` differs from it only in case and accents (`zoe` for "Zoë", as
    /// a keyboard without ë types it).
    static func namingTheTeams(_ error: any Error, team: String, client: ShakyClient) async -> any Error {
        // Only the refusal of the team itself (the game's other refusals, a question not open, come first).
        guard let refusal = error as? ShakyClientError, refusal.refusalName == "Refused",
            refusal.refusalReason == "unknownTeam",
            let teams = try? await client.game.status().teams.map(\.name), !teams.isEmpty
        else { return error }
        let guess = TextFold.onlyMatch(for: team, among: teams).map { "; did you mean “\($0)”?" } ?? "."
        return CommandFailure(
            "\(refusal.description)\(guess) The teams are \(teams.map { "“\($0)”" }.spokenList("and"))."
        )
    }
}

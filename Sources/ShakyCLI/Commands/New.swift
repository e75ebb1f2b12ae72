import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky new`: starts a game.
    struct New: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a new game.",
            discussion: """
                Sets up the teams, the packs the questions are drawn from, and the rules. The game waits \
                in phase ready: open the first question with `shaky next`. A game still in play is ended \
                first only with --replace.

                EXAMPLES:
                Ten easy questions from the Animals pack for two teams:
                  shaky new --team Owls --team Foxes --pack Animals --difficulty easy
                Quicker questions, where the first team to buzz answers at once:
                  shaky new --team Owls --team Foxes --indication-time 30 --buzzer-mode classic
                """)

        @OptionGroup var setup: GameSetupOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !setup.teams.isEmpty else {
                throw ValidationError("Name the teams: --team NAME --team NAME (2 to 8 teams).")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.startGame(setup.request, orReplaceWith: "shaky new --replace …")
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

extension ShakyClient {
    /// Starts a game. Refused because a game is in play, it says to end that one or to replace it with `command`:
    /// the `--replace` of the command the host typed (`shaky demo --replace`), not of another one.
    func startGame(
        _ request: ShakyAPI.GameInterface.NewParameters, orReplaceWith command: String
    ) async throws -> ShakyAPI.State {
        do {
            return try await game.new(request)
        } catch {
            guard error.refusalName == "GameInProgress" else { throw error }
            throw CommandFailure("a game is in play; end it with `shaky end`, or start anew with `\(command)`")
        }
    }
}

import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky answer`: the team up gives its answer.
    struct Answer: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give the answer of the team that is up.",
            discussion: """
                The words after the team make the answer, so quotes are optional. Near misses and missing \
                accents count as right unless the game's rules say otherwise (`shaky new --no-answer-tolerance`, \
                `--no-ignore-diacritics`). A wrong answer passes the question to the next team that buzzed.

                EXAMPLES:
                Owls answer “snow leopard”:
                  shaky answer Owls snow leopard
                """)

        @Argument(help: "The team that answers (it must be up).", completion: Completions.teamNames)
        var team: String

        @Argument(help: ArgumentHelp("The answer; several words are joined by spaces.", valueName: "answer"))
        var words: [String] = []

        @OptionGroup var global: GlobalOptions

        /// The answer as one string.
        var answer: String { words.joined(separator: " ") }

        func validate() throws {
            guard !answer.trimmingSpaces.isEmpty else {
                throw ValidationError("Say the answer after the team: shaky answer \(team) WORDS…")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let reply: ShakyAPI.GameInterface.AnswerReply
            do {
                reply = try await client.game.answer(team: team, answer: answer)
            } catch {
                throw await Self.namingTheTeam(error, team: team, words: words, client: client)
            }
            try global.emit(reply, on: console) { style in
                let verdict = reply.correct ? "Right!" : "Wrong."
                return style.strong(verdict) + "\n"
                    + TextRenderer.status(reply.status, style: style, width: console.width)
            }
        }

        /// `error`, or when the daemon refused a call whose team is no team's name but starts one (`shaky answer Cú Mèo
        /// Paris` answers "Mèo Paris" for a team "Cú"), the refusal with how to name that team.
        static func namingTheTeam(
            _ error: any Error, team: String, words: [String], client: ShakyClient
        ) async -> any Error {
            // Whatever the daemon refused first, a team typed as the first word of a longer team's name can never
            // answer: the game's teams say so, not the refusal's words.
            guard let refusal = error as? ShakyClientError, refusal.refusalName == "Refused" else { return error }
            let teams = (try? await client.game.status().teams.map(\.name)) ?? []
            guard let match = teamAndAnswer(team: team, words: words, teams: teams) else {
                return await Shaky.namingTheTeams(error, team: team, client: client)
            }
            return CommandFailure(
                "\(refusal.description); to answer for \(match.team), put its name in quotes: "
                    + "shaky answer \(ShellWord.quoted(match.team)) \(match.answer.map(ShellWord.quoted).joined(separator: " "))"
            )
        }

        /// The team of `teams` whose name is `team` and the first answer words (a name of several words typed
        /// without quotes), and the words left for the answer; `nil` when `team` is a team's whole name or no
        /// team's name starts with it.
        static func teamAndAnswer(
            team: String, words: [String], teams: [String]
        ) -> (team: String, answer: [String])? {
            let key = { (name: String) in name.lowercased() }
            guard !teams.contains(where: { key($0) == key(team) }) else { return nil }
            for taken in stride(from: words.count - 1, through: 1, by: -1) {
                let name = ([team] + words[..<taken]).joined(separator: " ")
                if let match = teams.first(where: { key($0) == key(name) }) { return (match, Array(words[taken...])) }
            }
            return nil
        }
    }
}

import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky score`: adds or takes points by hand.
    struct Score: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add points to a team, or take some away.",
            usage: "shaky score <team> <delta> [--reason <text>] [--socket <path>] [--json]",
            discussion: """
                The change is a whole number of at most \(ScoreAdjustmentRules.largest) points: +5 or 5 adds, -3 takes \
                away (`shaky score Owls -3` and `shaky score Owls -- -3` both work). It also works after the game is over, until a new game \
                starts: the result, the winners and the game's line in the history are corrected.

                EXAMPLES:
                Five points more for Owls; three fewer for Foxes, with the reason the scoreboard shows:
                  shaky score Owls +5
                  shaky score Foxes -3 --reason "answered for another team"
                """)

        @Argument(help: "The team whose score changes.", completion: Completions.teamNames)
        var team: String

        // Captures `-3`, which the parser would otherwise take for an option; validate() keeps exactly one.
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("Points to add, e.g. +5, or to take away, e.g. -3.", valueName: "delta"))
        var deltas: [String] = []

        @Option(help: ArgumentHelp("Why, as the scoreboard and history show it", valueName: "text"))
        var reason = defaultReason

        /// The reason of an adjustment the host gave none for, here and in `shaky play`, so the history reads the
        /// same whichever tool made it.
        static let defaultReason = "adjusted by the host"

        @OptionGroup var global: GlobalOptions

        /// The parsed change.
        var delta: ScoreDelta {
            get throws {
                let deltas = deltas.filter { $0 != "--" }
                guard let text = deltas.first else {
                    throw ValidationError("Say how many points: shaky score \(team) +5 (or -3).")
                }
                guard deltas.count == 1 else {
                    throw ValidationError(
                        "Give one change of score, not \(deltas.count): \(deltas.joined(separator: " ")).")
                }
                guard let delta = ScoreDelta(argument: text) else {
                    throw ValidationError(
                        "“\(text)” is not a change of score; write a whole number of at most "
                            + "\(ScoreAdjustmentRules.largest) points, such as +5 or -3.")
                }
                return delta
            }
        }

        func validate() throws {
            let delta = try delta
            guard delta.points != 0 else { throw ValidationError("A change of 0 points changes nothing.") }
            guard delta.points.magnitude <= ScoreAdjustmentRules.largest.magnitude else {
                throw ValidationError(
                    "A change of score is at most \(ScoreAdjustmentRules.largest) points either way, not \(delta).")
            }
            guard !reason.trimmingSpaces.isEmpty else { throw ValidationError("--reason must not be empty.") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let points = try delta.points
            let status: ShakyAPI.State
            do {
                status = try await client.game.adjustScore(team: team, delta: points, reason: reason)
            } catch {
                throw await Shaky.namingTheTeams(error, team: team, client: client)
            }
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                // What changed first, as `shaky watch` says it ("Score: Owls +5 (adjusted by the host) → 12"), then
                // the game: the table alone did not say which change was made.
                let changed = status.teams.first { TeamNameKey.of($0.name) == TeamNameKey.of(team) }
                let said = TextRenderer.scoreChange(
                    team: changed?.name ?? team, delta: points, reason: reason.trimmingSpaces, score: changed?.score)
                return TerminalText.printable(said, allowingLineBreaks: false) + "\n\n"
                    + TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers join`: press to join.
    struct Join: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask each team in turn to press its button; the first free button pressed is the team's.",
            discussion: """
                Asks the teams of the game in play (or those named) one after another, and waits until \
                every team has pressed (Ctrl-C stops waiting; buttons pressed so far stay assigned). A \
                button another team took in this joining does not count (it says whose it is). Stops with \
                the reason when the joining ends first (a new game of other teams, another joining, the \
                buttons cleared). With --json, one JSON object per line (each a Buzzers.Watch reply, \
                {"event": …}).

                EXAMPLES:
                  shaky buzzers join
                Only Foxes press (Owls keep their button):
                  shaky buzzers join Foxes
                """)

        @Argument(
            help: "The teams, in the order they are asked (default: the teams of the game in play).",
            completion: Completions.teamNames)
        var teams: [String] = []

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let asked = try await client.buzzers.join(teams: teams.isEmpty ? nil : teams)
            var waiting = asked
            var asking = waiting.first
            if !global.json, let asking { console.print("\(asking): press your button.") }
            for try await reply in try await client.buzzers.watch() {
                let event = reply.event
                if event.kind == .cleared {
                    // `shaky buzzers clear` stops a joining: say so rather than wait for presses that never count.
                    if global.json { console.print(try JSONOutput.renderLine(reply)) }
                    throw CommandFailure("the buttons were cleared, which stopped the joining; start it again")
                }
                if event.kind == .joinEnded {
                    // A new game of other teams, or another joining, ended this one: nobody presses for it any more.
                    if global.json { console.print(try JSONOutput.renderLine(reply)) }
                    throw CommandFailure("the joining ended: " + (event.message ?? "it was stopped"))
                }
                if event.kind == .pressed, event.outcome == "taken", let owner = event.team {
                    // A press that claimed nothing: the team asked learns why, and presses another button.
                    if global.json {
                        console.print(try JSONOutput.renderLine(reply))
                    } else {
                        let asking = event.asking ?? "the team asked"
                        console.print("That button is \(owner.possessive) — \(asking): press another button.")
                    }
                    continue
                }
                guard event.kind == .joined || event.kind == .joinAsking, let team = event.team else { continue }
                if global.json {
                    console.print(try JSONOutput.renderLine(reply))
                } else if event.kind == .joined {
                    console.print("\(team): \(event.keyName ?? "a button") on \(event.device ?? "a device").")
                } else if team != asking {
                    console.print("\(team): press your button.")
                }
                if event.kind == .joinAsking { asking = team }
                if event.kind == .joined {
                    waiting.removeAll { $0 == team }
                    if waiting.isEmpty { return }
                }
            }
        }
    }
}

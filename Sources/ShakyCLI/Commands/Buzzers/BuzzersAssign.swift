import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers assign`.
    struct Assign: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a button to a team, replacing whoever had it.",
            discussion: """
                DEVICE is a device node (/dev/input/event5) or identity as `shaky buzzers list` shows it; \
                KEY a key name (KEY_SPACE, space, BTN_TRIGGER, BTN_TRIGGER_HAPPY6) or code. A button another team \
                had is taken from it.

                EXAMPLES:
                The space bar of the keyboard at event3 for Owls:
                  shaky buzzers assign Owls /dev/input/event3 space
                """)

        @Argument(help: "The team.", completion: Completions.teamNames)
        var team: String

        @Argument(help: "The device: its node or identity.")
        var device: String

        @Argument(help: "The key: a name or a code.")
        var key: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            // Who held the button before, to say so: a button moved from one team to another without a word left
            // the first team pressing in vain. Only for the words; the assignment does not depend on it.
            let listed = try? await client.buzzers.list()
            let before = listed?.assignments
            let assignment = try await client.buzzers.assign(team: team, device: device, key: key)
            let previous = before?.first {
                $0.device == assignment.device && $0.key == assignment.key
                    && $0.team.lowercased() != assignment.team.lowercased()
            }
            try global.emit(ShakyAPI.BuzzersInterface.AssignReply(assignment: assignment), on: console) { _ in
                "\(assignment.team): \(assignment.keyName) on \(assignment.device)"
                    + (previous.map { ", taken from \(TerminalText.printable($0.team))" } ?? "") + "."
            }
            // A button may be set up for a device not plugged in yet, by its identity; one no device has shown may
            // also be a typo, a button that would never buzz.
            if let listed, listed.reading == false {
                console.printError(
                    "shaky: the daemon reads no buzzers (it was started with --buzzers none): the button works once it "
                        + "is started with --buzzers auto")
            } else if let listed, !listed.devices.contains(where: { $0.identity == assignment.device }) {
                console.printError(
                    "shaky: no device “\(TerminalText.printable(assignment.device))” has been seen; the button works "
                        + "once a device of that identity is plugged in (`shaky buzzers` lists the devices and their "
                        + "identities)")
            }
            // A button may be set up for a team of a game to come; a name no team of the game in play has may also be
            // a typo, which took the button from a team that plays.
            if let teams = try? await client.game.status().teams.map(\.name), !teams.isEmpty,
                !teams.contains(where: { $0.lowercased() == assignment.team.lowercased() })
            {
                let names = teams.map { "“\(TerminalText.printable($0))”" }.spokenList("and")
                console.printError(
                    "shaky: no team called “\(TerminalText.printable(assignment.team))” plays in this game (the teams "
                        + "are \(names)); the button is kept for a game with that team")
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers assign`.
    struct Assign: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a button to a team, replacing whoever had it.",
            discussion: """
                DEVICE is a device node (/dev/input/event5) or identity as `shaky buzzers list` shows it; \
                KEY a key name (KEY_SPACE, space, BTN_TRIGGER, BTN_TRIGGER_HAPPY6) or code. Example: \
                `shaky buzzers assign Owls /dev/input/event3 space`.
                """)

        @Argument(help: "The team.")
        var team: String

        @Argument(help: "The device: its node or identity.")
        var device: String

        @Argument(help: "The key: a name or a code.")
        var key: String

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let assignment = try await client.buzzers.assign(team: team, device: device, key: key)
            try global.emit(ShakyAPI.BuzzersInterface.AssignReply(assignment: assignment), on: console) { _ in
                "\(assignment.team): \(assignment.keyName) on \(assignment.device)."
            }
        }
    }
}

import ArgumentParser

extension Shaky {
    /// `shaky buzzers`: the teams' buttons.
    struct Buzzers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show and set which key or button is each team's buzzer.",
            discussion: """
                Any key or button device the daemon reads can be a team's buzzer: a keyboard key, an \
                arcade button, a Buzz! handset, a GPIO button, a game controller's button. A button belongs \
                to a team by its device's stable identity (the USB port or serial number) and key, and \
                stays assigned for the next games. `shaky buzzers join` after `shaky new` lets each team \
                press its button; `shakyd list-devices` shows the devices the daemon can read.

                EXAMPLES:
                Each team presses its button in turn, once the game is set up:
                  shaky new --team Owls --team Foxes
                  shaky buzzers join
                A button given by hand, and Foxes' buttons released:
                  shaky buzzers assign Owls /dev/input/event3 space
                  shaky buzzers clear Foxes
                """,
            subcommands: [List.self, Join.self, Assign.self, Clear.self],
            defaultSubcommand: List.self)
    }
}

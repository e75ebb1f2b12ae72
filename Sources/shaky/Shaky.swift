import ArgumentParser

/// `shaky`: the Shaky Words command-line client.
@main
struct Shaky: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shaky",
        abstract: "Play and host Shaky Words: a thin client of the shakyd daemon.",
        subcommands: [],
    )
}

import ArgumentParser
import ShakyCore
import Varlink

/// `shakyd`: the Shaky Words daemon and its sensor tools.
@main
struct Shakyd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakyd",
        abstract: "The Shaky Words daemon: reads the accelerometer, runs the game, serves it over Varlink.",
        version: ShakyVersion.current,
        subcommands: [Serve.self, Detect.self, Record.self, ListDevices.self],
        defaultSubcommand: Serve.self,
    )
}

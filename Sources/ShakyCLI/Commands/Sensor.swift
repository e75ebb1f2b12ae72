import ArgumentParser

extension Shaky {
    /// `shaky sensor`: the accelerometer.
    struct Sensor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the accelerometer whose shakes reveal hints, or teach it the players' shake.",
            subcommands: [Status.self, Calibrate.self], defaultSubcommand: Status.self)
    }
}

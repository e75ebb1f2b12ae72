import ArgumentParser

extension Shaky {
    /// `shaky sensor`: the accelerometer.
    struct Sensor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the accelerometer whose shakes reveal hints, or teach it the players' shake.",
            discussion: """
                Without a subcommand, shows the sensor (`shaky sensor status`). `shakyd list-devices` lists every \
                accelerometer found and why others are not used.

                EXAMPLES:
                  shaky sensor
                  shaky sensor calibrate --shake-seconds 10
                """,
            subcommands: [Status.self, Calibrate.self], defaultSubcommand: Status.self)
    }
}

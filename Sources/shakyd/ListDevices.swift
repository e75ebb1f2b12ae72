import ArgumentParser
import ShakyCore
import ShakyDrivers

extension Shakyd {
    /// `shakyd list-devices`: what accelerometers are found, which one would be used, and why others are not.
    struct ListDevices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-devices",
            abstract:
                "List the buzzer devices and accelerometers found, the one --input would use, and why others were rejected."
        )

        @Option(
            help: "The input to resolve: auto, iio[:NAME], evdev[:PATH] or trace:FILE.",
            transform: InputSpec.init(parsing:))
        var input: InputSpec = .auto

        @Option(help: "Sampling rate in Hz to try.")
        var rate: Double = 100

        func run() throws {
            print(EvdevBuzzerDiscovery.listing(of: EvdevBuzzerDiscovery().discoverAll()))
            let table = AccelerometerDriverTable.standard
            let options = AccelerometerOptions(rate: rate)
            print(AccelerometerDriverTable.listing(of: table.discoverAll(input, options: options), for: input))
        }
    }
}

import ArgumentParser
import ShakyCore
import ShakyDrivers

extension Shakyd {
    /// `shakyd list-devices`: what accelerometers are found, which one would be used, and why others are not.
    struct ListDevices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-devices",
            abstract:
                "List the buzzer devices, motion controllers and accelerometers found, the one --input would use, and "
                + "why others were rejected.")

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
            let devices = table.discoverAll(input, options: options)
            // The sensor --input would use is the board's, never also a shaker.
            let board = devices.first(where: \.isUsable).map { [$0.devicePath] } ?? []
            print(MotionControllerDiscovery.listing(of: MotionControllerDiscovery().discover(excluding: Set(board))))
            print(AccelerometerDriverTable.listing(of: devices, for: input))
        }
    }
}

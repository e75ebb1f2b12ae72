import ArgumentParser
import Foundation
import ShakyCore
import ShakyDaemon
import ShakyDrivers

extension Shakyd {
    /// `shakyd list-devices`: what accelerometers are found, which one would be used, and why others are not.
    struct ListDevices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-devices",
            abstract:
                "List the buzzer devices, motion controllers and accelerometers found, the one --input would use, and "
                + "why others were rejected.",
            discussion: """
                For a rejected accelerometer it says what would make it usable: an entry for the configuration \
                file's accelerometers list, or the same as a udev rule. A buffered IIO device is given about a \
                second to deliver its first sample; one that does not (an interrupt line that is not wired) is \
                listed as read by polling, as shakyd serve would read it.

                EXAMPLES:
                  shakyd list-devices
                  shakyd list-devices --input evdev:/dev/input/event3 --no-probe
                """)

        @Option(
            help: """
                The input to resolve: auto, iio[:NAME], evdev[:PATH] or trace:FILE (default: the configuration \
                file's input, as shakyd serve reads it, else auto).
                """,
            completion: .list(["auto", "iio", "evdev", "trace:"]),
            transform: InputSpec.init(parsing:))
        var input: InputSpec?

        @Option(
            help: ArgumentHelp("Samples a second to try, above 0 and up to 10000 (default: 100).", valueName: "hertz"),
            transform: DecimalText.argument)
        var rate: Double = 100

        @Option(
            help: ArgumentHelp(
                "The configuration file whose accelerometer descriptions apply (YAML, as for shakyd serve). A "
                    + "missing default file is fine; a named one must exist (default: /etc/shaky/shakyd.conf).",
                valueName: "file"),
            completion: .file())
        var config: String?

        @Flag(
            name: .customLong("no-probe"),
            help: """
                Do not wait (about a second) for each buffered IIO device's first sample; one whose interrupt \
                line is not wired is then listed as usable, though shakyd would soon poll it instead.
                """)
        var noProbe = false

        func validate() throws {
            guard rate > 0, rate <= 10_000 else {
                throw ValidationError("--rate must be above 0 and at most 10000 samples a second, not \(rate)")
            }
        }

        func run() throws {
            let settings = try ConfigurationFileLoading.load(named: config)
            let (input, place) = ConfigurationFileLoading.sensorInput(
                given: input, settings: settings, command: "list-devices")
            try CommandOutput.write(
                EvdevBuzzerDiscovery.listing(of: EvdevBuzzerDiscovery().discoverAll()) + "\n", command: "list-devices")
            let table = AccelerometerDriverTable.standard
            let options = AccelerometerOptions(
                rate: rate, descriptions: settings.accelerometers ?? [], probesBuffers: !noProbe)
            let devices = table.discoverAll(input, options: options)
            // The sensor --input would use is the board's, never also a shaker.
            let board = devices.first(where: \.isUsable).map { [$0.devicePath] } ?? []
            let controllers = MotionControllerDiscovery.listing(
                of: MotionControllerDiscovery().discover(excluding: Set(board)))
            let accelerometers = AccelerometerDriverTable.listing(of: devices, for: input, setIn: place?.description)
            try CommandOutput.write(controllers + "\n" + accelerometers + "\n", command: "list-devices")
        }
    }
}

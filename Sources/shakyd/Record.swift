import ArgumentParser
import Dispatch
import Foundation
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import SystemCalls

extension Shakyd {
    /// `shakyd record`: writes live samples from any input to a trace file.
    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record accelerometer samples to a trace file (stop with Ctrl-C or --duration).",
            discussion: """
                Reads the accelerometer shakyd serve would read and writes each sample to a trace: CSV with the \
                header t,x,y,z (seconds, and m/s² including gravity), after comment lines naming the device, \
                its driver and its rate; a sample whose time does not come after the previous one is left out, \
                and counted. Attach the trace to a bug report; `shakyd serve --input trace:FILE` replays it and \
                `shakyd detect` runs the detector on it. A buffered IIO device that shakyd serve reads is busy: \
                stop the daemon first.

                EXAMPLES:
                Thirty seconds of the first accelerometer found, at 100 Hz:
                  shakyd record --output shakes.csv --duration 30
                  shakyd record --input iio:mpu6050 --rate 200 --output mpu6050.csv
                """)

        @Option(
            help: """
                Where to read: auto, iio[:NAME], evdev[:PATH] or trace:FILE[,speed=max][,loop] (default: the \
                configuration file's input, as shakyd serve reads it, else auto).
                """,
            completion: .list(["auto", "iio", "evdev", "trace:"]),
            transform: InputSpec.init(parsing:))
        var input: InputSpec?

        @Option(
            help: ArgumentHelp(
                "The trace file to write (CSV: t,x,y,z); a file already there is replaced.", valueName: "file"),
            completion: .file(extensions: ["csv"]))
        var output: String

        @Option(
            help: ArgumentHelp(
                "Stop after this many seconds (default: at Ctrl-C, SIGTERM or SIGHUP).", valueName: "seconds"),
            transform: DecimalText.argument)
        var duration: Double?

        @Option(
            help: ArgumentHelp(
                "Samples a second, above 0 and up to 10000 (default: 100; IIO picks the nearest rate the device offers).",
                valueName: "hertz"), transform: DecimalText.argument)
        var rate: Double = 100

        @Option(
            help: ArgumentHelp(
                "The configuration file whose accelerometer descriptions apply (YAML, as for shakyd serve). A "
                    + "missing default file is fine; a named one must exist (default: /etc/shaky/shakyd.conf).",
                valueName: "file"),
            completion: .file())
        var config: String?

        func validate() throws {
            guard !output.isEmpty else { throw ValidationError("--output needs a file name, not an empty one") }
            if let duration, !(duration > 0 && duration <= 1e9) {
                throw ValidationError("--duration must be a positive number of seconds, at most 1000000000")
            }
            guard rate > 0, rate <= 10_000 else {
                throw ValidationError("--rate must be above 0 and at most 10000 samples a second, not \(rate)")
            }
        }

        func run() async throws {
            let settings = try ConfigurationFileLoading.load(named: config)
            let (spec, place) = ConfigurationFileLoading.sensorInput(
                given: input, settings: settings, command: "record")
            let recorder = TraceRecorder(
                spec: spec,
                options: AccelerometerOptions(
                    rate: rate, clock: ContinuousClock(), descriptions: settings.accelerometers ?? []),
                log: { line in StandardStreams.writeError("shakyd record: \(line)\n") })
            let output = output
            let duration = duration.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
            // Heard before the recording starts, so that a stop at any moment keeps what was recorded: a stop that
            // comes before the recording's task is kept in the stream for it.
            let (stops, stop) = AsyncStream<Void>.makeStream()
            let interrupts = StopSignals.handle { stop.yield() }
            defer { interrupts.forEach { $0.cancel() } }
            let recording = Task { try await recorder.record(to: output, duration: duration) }
            let stopping = Task {
                for await _ in stops {
                    recording.cancel()
                    return
                }
            }
            defer { stopping.cancel() }
            do {
                _ = try await recording.value
            } catch let error as AccelerometerDriverError where place != nil {
                // Said as argument-parser says the others, with the configuration file's line for the input.
                let input = ConfigurationFilePlace.inputName("\(spec)", setIn: place)
                StandardStreams.writeError("Error: \(error.description(naming: input))\n")
                throw ExitCode.failure
            }
        }
    }
}

extension InputSpec: ExpressibleByArgument {
    public init?(argument: String) {
        guard let spec = try? InputSpec(parsing: argument) else { return nil }
        self = spec
    }
}

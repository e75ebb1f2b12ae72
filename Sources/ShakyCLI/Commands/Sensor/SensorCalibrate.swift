import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Sensor {
    /// `shaky sensor calibrate`: teaches the detector the players' shake.
    struct Calibrate: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Teach the shake detector how your players shake: shake the device, then hold it still.",
            discussion: """
                When asked, shake the device as the players will during the game; when asked again, hold it \
                still. The daemon measures the shaking's typical stroke and the sensor's noise and sets the \
                thresholds of the medium sensitivity for this device, within safe bounds (gentle players get a \
                lower threshold, vigorous ones a higher one, never so low that walking triggers). The result \
                is kept per device and used from the next question on while the sensitivity is medium; light \
                and hard stay as they are. Calibrate again at any time to replace it. Not while a question is \
                open: pause the game or calibrate between questions. Needs control rights (group shaky). \
                You are asked to shake only once the daemon has taken the calibration: when it cannot (no \
                sensor, a question open, no control rights) it says why and what to do instead. A daemon \
                replaying a recorded trace (--input trace:FILE, or the demo) calibrates on the trace's \
                samples: there is nothing to shake.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(
            help: ArgumentHelp("Seconds of shaking, 3 to 60 (default: 5).", valueName: "seconds"),
            transform: DecimalText.argument)
        var shakeSeconds: Double = 5

        @Option(
            help: ArgumentHelp("Seconds of holding still, 2 to 60 (default: 4).", valueName: "seconds"),
            transform: DecimalText.argument)
        var stillSeconds: Double = 4

        func validate() throws {
            guard (3...60).contains(shakeSeconds) else {
                throw ValidationError(
                    "--shake-seconds must be 3 to 60, not \(DecimalText.said(shakeSeconds, outside: 3...60))")
            }
            guard (2...60).contains(stillSeconds) else {
                throw ValidationError(
                    "--still-seconds must be 2 to 60, not \(DecimalText.said(stillSeconds, outside: 2...60))")
            }
        }

        /// What the host is told to do, for the shaking and then for holding still.
        static func instructions(
            for sensor: ShakyAPI.SensorStatus, shakeSeconds: Double, stillSeconds: Double
        ) -> (shake: String, holdStill: String) {
            if sensor.driver == "trace" {
                return (
                    "The daemon reads a recorded trace, not a device: nothing to shake. It takes the trace's next "
                        + "\(spoken(shakeSeconds)) seconds as the shaking…",
                    "…and \(spoken(stillSeconds)) seconds after a pause as holding still…"
                )
            }
            return (
                "Shake the device now, as your players will, for \(spoken(shakeSeconds)) seconds…",
                "Stop, and hold it still for \(spoken(stillSeconds)) seconds…"
            )
        }

        /// A number of seconds as the instructions say it: whole seconds as a whole number ("5"), others to the
        /// tenth ("3.5" for `--shake-seconds 3.5`, which was said as 3).
        static func spoken(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(format: "%.0f", seconds) : String(format: "%.1f", seconds)
        }

        /// How long the instruction to shake waits for a refusal. Every refusal comes before the sensor is read
        /// (no control rights, no sensor, a question open), so a host is not told to shake and then that the
        /// daemon will not calibrate. A sensor that is not ready is refused all but surely (the daemon first looks
        /// for a missing one again, which takes longer): the instruction waits longer then, and comes only when the
        /// daemon found one after all.
        static func refusalWait(for sensor: ShakyAPI.SensorStatus) -> Duration {
            sensor.state == .ready ? .milliseconds(300) : .seconds(2)
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let shake = shakeSeconds
            let still = stillSeconds
            let quiet = global.json
            let sensor = try await client.sensor.status()
            let instructions = Self.instructions(for: sensor, shakeSeconds: shake, stillSeconds: still)
            let wait = Self.refusalWait(for: sensor)
            // The daemon times the steps on the sensor's clock from when it takes the call; these follow on ours.
            let prompt = Task {
                try await Task.sleep(for: wait)
                if !quiet { console.print(instructions.shake) }
                try await Task.sleep(for: .seconds(shake) - wait)
                if !quiet { console.print(instructions.holdStill) }
            }
            defer { prompt.cancel() }
            let calibration = try await client.sensor.calibrate(shakeSeconds: shake, stillSeconds: still)
            prompt.cancel()
            try global.emit(ShakyAPI.SensorInterface.CalibrateReply(calibration: calibration), on: console) { _ in
                TextRenderer.calibration(calibration)
            }
        }
    }
}

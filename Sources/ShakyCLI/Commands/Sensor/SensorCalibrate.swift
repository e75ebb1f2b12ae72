import ArgumentParser
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
                open: pause or finish the round first. Needs control rights (group shaky).
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: "Seconds of shaking (3-60).")
        var shakeSeconds: Double = 5

        @Option(help: "Seconds of holding still (2-60).")
        var stillSeconds: Double = 4

        func validate() throws {
            guard (3...60).contains(shakeSeconds) else { throw ValidationError("--shake-seconds must be 3 to 60") }
            guard (2...60).contains(stillSeconds) else { throw ValidationError("--still-seconds must be 2 to 60") }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let shake = shakeSeconds
            let still = stillSeconds
            let quiet = global.json
            if !quiet { console.print("Shake the device now, as your players will, for \(Int(shake)) seconds…") }
            // The daemon times the steps on the sensor's clock; this prompt follows on ours.
            let prompt = Task {
                try await Task.sleep(for: .seconds(shake))
                if !quiet { console.print("Stop, and hold it still for \(Int(still)) seconds…") }
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

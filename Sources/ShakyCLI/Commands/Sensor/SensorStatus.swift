import ArgumentParser
import ShakyProtocol

extension Shaky.Sensor {
    /// `shaky sensor [status]`: the accelerometer as the daemon sees it.
    struct Status: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the accelerometer whose shakes reveal hints.",
            discussion: """
                States: absent (none found; hints are manual), ready (read while a question is open), \
                reading, gone (unplugged; the daemon waits for it to come back).
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let sensor = try await client.sensor.status()
            try global.emit(ShakyAPI.SensorInterface.StatusReply(sensor: sensor), on: console) { _ in
                TextRenderer.sensor(sensor)
            }
        }
    }
}

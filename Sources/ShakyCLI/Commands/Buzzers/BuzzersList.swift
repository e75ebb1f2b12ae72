import ArgumentParser
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers list` (the default of `shaky buzzers`).
    struct List: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the buzzer devices, each team's buttons, and who still has to press to join.")

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let reply = try await client.buzzers.list()
            try global.emit(reply, on: console) { _ in TextRenderer.buzzers(reply) }
        }
    }
}

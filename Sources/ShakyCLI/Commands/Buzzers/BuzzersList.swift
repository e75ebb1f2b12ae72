import ArgumentParser
import ShakyProtocol

extension Shaky.Buzzers {
    /// `shaky buzzers list` (the default of `shaky buzzers`).
    struct List: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the buzzer devices, each team's buttons, and who still has to press to join.",
            discussion: """
                What `shaky buzzers` shows without a subcommand: each device the daemon reads as buzzers, by node \
                and identity (what `shaky buzzers assign` takes), each team's buttons, and the teams a joining \
                still waits for. A daemon started with --buzzers none says so.
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let reply = try await client.buzzers.list()
            try global.emit(reply, on: console) { _ in TextRenderer.buzzers(reply) }
        }
    }
}

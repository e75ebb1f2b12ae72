import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky end`: end the game now.
    struct End: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "End the game now.",
            discussion:
                "The game counts in history with the scores it has, unless it ended before its first question; the "
                + "result is printed.")

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.end()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky hint`: reveal one more letter, as a shake does.
    struct Hint: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reveal one more letter, as a shake does.",
            discussion:
                "Puts the next letter of the answer in its right place and reshuffles the others; each hint makes the question worth fewer points."
        )

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.hint()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

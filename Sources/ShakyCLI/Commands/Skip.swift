import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky skip`: close the current question without points and reveal its answer.
    struct Skip: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close the current question without points and reveal its answer.",
            discussion: "Nobody scores; open the next question with `shaky next`.")

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.skip()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

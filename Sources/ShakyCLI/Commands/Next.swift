import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky next`: open the next question.
    struct Next: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open the next question.",
            discussion: """
                Opens the first question after `shaky new`, and the next one once a question is over (answered, \
                skipped, or its time run out); after the last question it ends the game.
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.next()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

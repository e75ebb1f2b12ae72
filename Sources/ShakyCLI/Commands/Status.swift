import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky status`: show the game: question, letters, countdown, buzzes, answers judged and scores.
    struct Status: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the game: question, letters, countdown, buzzes, answers judged and scores.",
            discussion: """
                Fixed letters are shown in brackets, [T] (underlined on a terminal). The answers judged on the \
                question are listed in shaky watch's words. On a terminal, long answers and names are cut short with \
                “…” to fit its width; through a pipe every line is whole.
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.status()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

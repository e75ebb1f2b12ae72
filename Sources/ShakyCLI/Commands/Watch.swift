import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky watch`: follows the game live.
    struct Watch: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow the game live: one line per event, with the countdown every second.",
            discussion: """
                Prints the game as it stands, then every question, hint, buzz, answer, score change and \
                countdown tick until interrupted (Ctrl-C). With --json, one JSON object per line \
                (each a Watch reply, {"event": …}).
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            var renderer = WatchRenderer(style: console.style)
            for try await reply in try await client.game.watch() {
                if global.json {
                    console.print(try JSONOutput.renderLine(reply))
                } else if let line = renderer.line(for: reply.event) {
                    console.print(line)
                }
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky pause`: freeze the countdown.
    struct Pause: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Freeze the countdown.",
            discussion:
                "The time left is kept exactly; `shaky resume` lets it run again. Buzzes and answers are refused while "
                + "paused, saying to resume first."
        )

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.pause()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

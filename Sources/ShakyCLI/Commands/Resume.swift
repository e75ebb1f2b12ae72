import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky resume`: let the countdown run again after a pause.
    struct Resume: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let the countdown run again after a pause.",
            discussion: """
                The countdown goes on from the time it had when `shaky pause` froze it. A daemon that restarts \
                restores an open question paused: this resumes it.
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.resume()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style, width: console.width)
            }
        }
    }
}

import ArgumentParser
import ShakyProtocol

extension Shaky.Judge {
    /// `shaky judge overrule`.
    struct Overrule: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reverse the last judgement: right after all, or wrong after all.")

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let status = try await client.game.overrule()
            try global.emit(ShakyAPI.GameInterface.StatusReply(status: status), on: console) { style in
                TextRenderer.status(status, style: style)
            }
        }
    }
}

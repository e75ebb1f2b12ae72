import ArgumentParser
import ShakyProtocol

extension Shaky.Judge {
    /// `shaky judge overrule`.
    struct Overrule: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reverse the last judgement: right after all, or wrong after all.",
            discussion: """
                Also after the game is over, until a new game starts: it reverses the last judgement of the \
                last question played, and the result, the winners and the game's line in `shaky history` and \
                the leaderboard are corrected; the game stays over. When the team's time had run out, the \
                output says so: "time had run out; counted as right".
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            let reply = try await client.game.overrule()
            try global.emit(reply, on: console) { style in
                let overruled = reply.overruled.map { TextRenderer.overruling($0) + "\n" } ?? ""
                return overruled + TextRenderer.status(reply.status, style: style, width: console.width)
            }
        }
    }
}

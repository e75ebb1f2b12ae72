import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky.Pack {
    /// `shaky pack search`.
    struct Search: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find questions whose text or answer contains the words, ignoring case and accents.",
            discussion: """
                A question is found when it holds every word given, anywhere and in any order, ignoring case, \
                accents and spaces inside words; the first 16 different words count. Each is listed with its id \
                and its pack.

                EXAMPLES:
                The capital of Vietnam, whose answer has accents (so hanoi and "ha noi" find it too):
                  shaky pack search capital vietnam
                  shaky pack search hanoi --pack "Places with Accents"
                """)

        @Argument(help: ArgumentHelp("The words to look for.", valueName: "words"))
        var words: [String] = []

        @Option(
            help: ArgumentHelp("Search only this pack (default: every pack).", valueName: "name"),
            completion: Completions.packNames)
        var pack: String?

        @Option(
            help: ArgumentHelp("Show at most this many questions, 1 or more (default: 50).", valueName: "count"),
            transform: DecimalText.wholeNumberArgument)
        var limit: Int?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !words.joined().trimmingSpaces.isEmpty else { throw ValidationError("Say what to look for.") }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit).") }
        }

        /// How many questions are shown without --limit (the daemon's default too).
        static let defaultLimit = 50

        func run(client: ShakyClient, console: any Console) async throws {
            let shown = limit ?? Self.defaultLimit
            // One more than is shown, to know whether the list was cut.
            let found = try await client.packs.search(
                text: words.joined(separator: " "), pack: pack, limit: shown < Int.max ? shown + 1 : shown)
            let questions = Array(found.prefix(shown))
            try global.emit(ShakyAPI.PacksInterface.SearchReply(questions: questions), on: console) { _ in
                guard found.count > shown else { return TextRenderer.questions(questions) }
                return TextRenderer.questions(questions)
                    + "\nMore questions match: "
                    + (shown == 1 ? "the first is shown" : "the first \(shown) are shown")
                    + " (--limit COUNT shows more)."
            }
        }
    }
}

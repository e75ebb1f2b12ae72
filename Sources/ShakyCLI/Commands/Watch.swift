import ArgumentParser
import ShakyProtocol

extension Shaky {
    /// `shaky watch`: follows the game live.
    struct Watch: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow the game live: one line per event, with the countdown every second.",
            discussion: """
                Prints the game as it stands, then every question, hint, buzz, answer, score change and \
                countdown tick until interrupted (Ctrl-C). The countdown is counted here, between the daemon's \
                events, so the daemon need not wake each second for it. With --json, one JSON object per line \
                (each a Watch reply, {"event": …}), the daemon's own tick each second included.

                When the daemon restarts or goes away, it says so on standard error ("Lost the daemon at PATH: \
                reconnecting…"), tries again after 0.25 s, doubling up to 5 s, and once the daemon answers says \
                "Reconnected" and prints the game as it stands again. Only a daemon that cannot be reached at \
                the start ends it (exit status 3).

                An event a newer daemon sends with a kind or value this shaky does not know is skipped, and \
                said once per value on standard error ("skipping events with event.kind “…”"). The game as it \
                stands (the first event, and the one after a new game) cannot be skipped: one this shaky cannot \
                read ends the watch, saying the daemon is newer (exit status 1).
                """)

        @OptionGroup var global: GlobalOptions

        func run(client: ShakyClient, console: any Console) async throws {
            try await follow(feed(client), on: console)
        }

        /// The game's feed: its countdown counted here, but for JSON, which shows the daemon's own events.
        func feed(_ client: ShakyClient) -> LiveFeed {
            LiveFeed(client: client, countsDown: !global.json)
        }

        /// Prints what `feed` reports until it ends (it does only when refused, or when its task is cancelled).
        func follow(_ feed: LiveFeed, on console: any Console) async throws {
            var renderer = WatchRenderer(style: console.style)
            feed.client.reportSkippedReplies { console.printError("shaky: " + LiveFeed.skippedMessage($0)) }
            try await feed.run { update in
                switch update {
                case .reply(let reply):
                    if global.json {
                        console.print(try JSONOutput.renderLine(reply))
                    } else if let line = renderer.line(for: reply.event) {
                        console.print(line)
                    }
                case .lost:
                    console.printError(feed.lostMessage)
                case .back:
                    console.printError(feed.backMessage)
                }
            }
        }
    }
}

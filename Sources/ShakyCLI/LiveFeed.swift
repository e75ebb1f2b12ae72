import ShakyBoard
import ShakyProtocol

/// The game as it happens (`Watch`) for `shaky play` and `shaky watch`, kept up across restarts of the daemon:
/// when the feed ends or the daemon cannot be reached, it says so and tries again with backoff (as the board
/// does), until its task is cancelled.
///
/// Waiting is injected, so tests drive the retries without real time.
struct LiveFeed: Sendable {
    /// What the feed has to say.
    enum Update: Sendable {
        /// A `Watch` reply; after a reconnection the first one is the game as it stands.
        case reply(ShakyAPI.GameInterface.WatchReply)
        /// The daemon went away: its feed ended, or it cannot be reached. Said once per outage.
        case lost
        /// The daemon answers again after ``lost``: the next update is the game as it stands.
        case back
    }

    /// The daemon's client; each try opens a connection of its own to its socket.
    let client: ShakyClient
    /// The waits between tries.
    var backoff = ReconnectBackoff()
    /// Waits; throws when the wait is cancelled.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// Hands each update to `handle` until the task is cancelled (then it throws `CancellationError`), the daemon
    /// refuses the feed, or `handle` throws.
    func run(_ handle: (Update) async throws -> Void) async throws {
        var failures = 0
        while true {
            do {
                for try await reply in try await client.game.watch() {
                    if failures > 0 {
                        failures = 0
                        try await handle(.back)
                    }
                    try await handle(.reply(reply))
                }
            } catch let error as ShakyClientError {
                switch error {
                case .daemonUnreachable, .connectionLost: break
                case .refused, .protocolError, .newerDaemon: throw error
                }
            }
            try Task.checkCancellation()
            failures += 1
            if failures == 1 { try await handle(.lost) }
            try await sleep(backoff.delay(afterFailures: failures))
        }
    }

    /// What to say when the daemon went away.
    var lostMessage: String { "Lost the daemon at \(client.socketPath): reconnecting…" }

    /// What to say when it is back.
    var backMessage: String { "Reconnected to the daemon at \(client.socketPath)." }

    /// What to say when the client skips events for a value it does not know (the daemon is newer).
    static func skippedMessage(_ unknown: UnknownReplyValue) -> String {
        "skipping events with \(unknown.field) “\(unknown.value)”, which this shaky does not know: the daemon is "
            + "newer; \(UnknownReplyValue.advice)"
    }
}

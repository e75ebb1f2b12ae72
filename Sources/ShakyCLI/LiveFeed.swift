import ShakyBoard
import ShakyProtocol
import Synchronization

/// The game as it happens (`Watch`) for `shaky play` and `shaky watch`, kept up across restarts of the daemon:
/// when the feed ends or the daemon cannot be reached, it says so and tries again with backoff (as the board
/// does), until its task is cancelled.
///
/// With ``countsDown`` it asks the daemon for no tick each second (`Watch(ticks: false)`, so the daemon sleeps through
/// a countdown) and makes the ticks here, on this process's clock (``WatchCountdown``), between the daemon's events.
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
    /// Whether the countdown's ticks are made here rather than sent by the daemon.
    var countsDown = false
    /// The clock the countdown runs on here (time since a fixed start), and how it waits for the next second.
    var countdownClock = CountdownClock()

    /// The clock a feed that counts down itself runs on.
    struct CountdownClock: Sendable {
        /// Time since a fixed start.
        var now: @Sendable () -> Duration
        /// Waits until `now` reads the reading given; throws when the wait is cancelled.
        var sleepUntil: @Sendable (Duration) async throws -> Void

        /// The process's continuous clock.
        init() {
            let start = ContinuousClock.now
            now = { start.duration(to: .now) }
            sleepUntil = { try await Task.sleep(until: start + $0, clock: .continuous) }
        }

        init(
            now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void
        ) {
            self.now = now
            self.sleepUntil = sleepUntil
        }
    }

    /// Hands each update to `handle` until the task is cancelled (then it throws `CancellationError`), the daemon
    /// refuses the feed, or `handle` throws.
    func run(_ handle: (Update) async throws -> Void) async throws {
        try await backoff.retry(sleep: sleep) { heardFromDaemon in
            do {
                for try await reply in try await replies() {
                    if heardFromDaemon() > 0 { try await handle(.back) }
                    try await handle(.reply(reply))
                }
            } catch let error as ShakyClientError {
                switch error {
                case .daemonUnreachable, .connectionLost: break
                case .refused, .protocolError, .newerDaemon: throw error
                }
            }
        } failed: { failures in
            if failures == 1 { try await handle(.lost) }
        }
    }

    /// One `Watch` call's replies, with the countdown's ticks made here between them when ``countsDown``.
    private func replies() async throws -> AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error> {
        guard countsDown else { return try await client.game.watch() }
        let daemonReplies = try await client.game.watch(ticks: false)
        let (merged, output) = AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error>.makeStream()
        let ticks = LocalTicks(clock: countdownClock, output: output)
        let pump = Task {
            var ticker: Task<Void, Never>?
            defer { ticker?.cancel() }
            do {
                for try await reply in daemonReplies {
                    let version = ticks.pass(reply)
                    ticker?.cancel()
                    ticker = Task { await ticks.tick(while: version) }
                }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
        }
        output.onTermination = { _ in pump.cancel() }
        return merged
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

/// The daemon's replies and the ticks made between them, sent to one output: the countdown and the output share a
/// lock, so a tick made here is never sent after the event that stopped or changed its countdown.
private final class LocalTicks: Sendable {
    private let clock: LiveFeed.CountdownClock
    private let output: AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error>.Continuation
    /// The countdown, and how many replies changed it.
    private let countdown = Mutex((WatchCountdown(), version: 0))

    init(
        clock: LiveFeed.CountdownClock,
        output: AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error>.Continuation
    ) {
        self.clock = clock
        self.output = output
    }

    /// Sends the daemon's `reply` on; returns the countdown's version after it.
    func pass(_ reply: ShakyAPI.GameInterface.WatchReply) -> Int {
        countdown.withLock { state in
            state.0.apply(reply.event, at: clock.now())
            state.version += 1
            output.yield(reply)
            return state.version
        }
    }

    /// Sends the countdown's ticks, each at its second, while the countdown is the one of `version`.
    func tick(while version: Int) async {
        while let next = countdown.withLock({ $0.version == version ? $0.0.nextTick(after: clock.now()) : nil }) {
            do {
                try await clock.sleepUntil(next.at)
            } catch {
                return
            }
            let sent = countdown.withLock { state in
                guard state.version == version else { return false }
                output.yield(ShakyAPI.GameInterface.WatchReply(event: state.0.tick(remaining: next.remaining)))
                return true
            }
            guard sent else { return }
        }
    }
}

import ShakyCore
import ShakyProtocol

/// Keeps a ``BoardModel`` up to date from the daemon: watches the game, reads the sensor, sound and buttons,
/// and when the daemon goes away marks the board "reconnecting" and tries again with backoff, forever
/// (until its task is cancelled).
///
/// Time and waiting are injected: `now` is the board's clock (for the hint highlight), `sleep` waits
/// between tries and between reads of the settings, so tests drive it without real time.
public struct BoardFeed: Sendable {
    /// The daemon's socket, or `nil` for the usual places.
    public var socketPath: String?
    /// The usual places.
    public var defaults: DefaultPaths
    /// The waits between tries.
    public var backoff: ReconnectBackoff
    /// How often the sound setting, the sensor and the buttons are read again (`Watch` does not report all of it).
    public var settingsInterval: Duration
    /// The board's clock: time since it started.
    public var now: @Sendable () -> Duration
    /// Waits; throws when the wait is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A feed of the daemon at `socketPath`.
    public init(
        socketPath: String?, defaults: DefaultPaths = DefaultPaths(), backoff: ReconnectBackoff = ReconnectBackoff(),
        settingsInterval: Duration = .seconds(5), now: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.socketPath = socketPath
        self.defaults = defaults
        self.backoff = backoff
        self.settingsInterval = settingsInterval
        self.now = now
        self.sleep = sleep
    }

    /// The sockets tried, in order.
    public var sockets: [String] { socketPath.map { [$0] } ?? defaults.clientSockets }

    /// Feeds `model` until the task is cancelled.
    public func run(into model: BoardModel) async {
        let sockets = self.sockets
        model.update { $0.daemonSockets = sockets }
        try? await backoff.retry(sleep: sleep) { heardFromDaemon in
            await watchOnce(into: model, onConnected: { _ = heardFromDaemon() })
        } failed: { attempt in
            let time = now()
            model.update {
                $0.connection = .reconnecting(attempt: attempt)
                $0.holdCountdown(at: time)
            }
        }
    }

    /// One connection, until the daemon goes away or the task is cancelled.
    private func watchOnce(into model: BoardModel, onConnected: () -> Void) async {
        let client: ShakyClient
        do {
            client = try await ShakyClient.connect(socketPath: socketPath, defaults: defaults)
        } catch {
            if case .daemonUnreachable(_, let reason) = error {
                model.update { $0.daemonProblem = reason }
            }
            return
        }
        defer { Task { await client.close() } }
        // Events of a newer daemon that the board skips: the board says once to update shaky.
        client.reportSkippedReplies { unknown in model.update { $0.unknownDaemonValue = unknown } }
        do {
            // The board counts the countdown down itself: the daemon need not wake each second for it.
            let replies = try await client.game.watch(ticks: false)
            var iterator = replies.makeAsyncIterator()
            // Connected once the game as it stands has come (the first reply): a daemon whose game the board cannot
            // read is not one it is connected to.
            guard let first = try await iterator.next() else { return }
            onConnected()
            await refreshDaemonState(client, into: model)
            let time = now()
            model.update {
                $0.connection = .connected
                $0.daemonProblem = nil
                $0.apply(first.event, at: time)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while true {
                        try await sleep(settingsInterval)
                        try Task.checkCancellation()
                        await refreshDaemonState(client, into: model)
                    }
                }
                while let reply = try await iterator.next() {
                    let time = now()
                    model.update { $0.apply(reply.event, at: time) }
                }
                group.cancelAll()
            }
        } catch ShakyClientError.newerDaemon(let unknown) {
            // The game as it stands holds a value the board does not know: the game shown is no longer the daemon's.
            model.update {
                $0.clearGame()
                $0.unknownDaemonValue = unknown
                $0.daemonProblem = "the daemon is newer than this board"
            }
        } catch {}
    }

    private func refreshDaemonState(_ client: ShakyClient, into model: BoardModel) async {
        if let sensor = try? await client.sensor.status() {
            model.update { $0.apply(sensor: sensor) }
        }
        if let settings = try? await client.settings.get() {
            model.update { $0.apply(settings: settings) }
        }
        // `Watch` reports joins but not clears or assignments made by hand: read them all again.
        if let buzzers = try? await client.buzzers.list() {
            model.update { $0.apply(buzzers: buzzers) }
        }
    }
}

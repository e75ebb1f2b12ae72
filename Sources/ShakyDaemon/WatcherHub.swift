import Logging
import ShakyDrivers
import ShakyProtocol
import Synchronization
import Varlink

/// The `Watch` fan-out: each runtime event is mapped to the wire and encoded once, then sent to every watcher
/// through one ``VarlinkBroadcast`` (on a socket, straight to the watchers' connections on their event loops).
///
/// The runtime calls ``publish(_:)`` on its inbox, and a watcher joins on the inbox too (``watch(_:for:)``), so each
/// watcher hears the state and then every later event, in order. A watcher that falls
/// ``ShakyService/watcherQueueLimit`` events behind is dropped.
public final class WatcherHub: Sendable {
    /// Takes one encoded event for an in-process listener; returns `false` when it cannot take it (it is dropped).
    public typealias Sink = VarlinkBroadcast.Sink

    private let broadcast: VarlinkBroadcast
    /// When a burst of watchers that left gives its memory back.
    private let trim = Mutex(WatcherBurstTrim())
    private let logger: Logger

    /// Creates an empty hub.
    public init(logger: Logger) {
        self.logger = logger
        broadcast = VarlinkBroadcast(backlogLimit: ShakyService.watcherQueueLimit)
    }

    /// How many watchers are attached.
    public var count: Int { broadcast.count }

    /// Sends `event` to every watcher, dropping those that cannot take it.
    public func publish(_ event: RuntimeEvent) {
        // After the fan-out: what the last watchers of a burst left behind, once their connections are freed.
        defer { if trim.withLock({ $0.published() }) { MallocTuning.releaseFreeMemory() } }
        guard broadcast.count > 0, let parameters = encode(event) else { return }
        broadcast.send(parameters)
    }

    /// The replies of the `Watch` call `request` (``VarlinkRequest/current``; `nil` for a caller in this process):
    /// the game as it stands, then every event of `runtime`.
    public func watch(
        _ runtime: GameRuntime, for request: VarlinkRequest?
    ) async -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        await runtime.withCurrentState { state in
            // On the runtime's inbox: no event is published between this state and the watcher's joining.
            guard let first = encode(state) else {
                return AsyncThrowingStream { $0.finish(throwing: UnencodableEvent()) }
            }
            let replies = broadcast.subscribe(request, first: first) { [self] in watcherLeft($0) }
            notePeak()
            return replies
        }
    }

    /// Adds an in-process listener to `runtime`'s events: it is handed the game as it stands, then every event, on
    /// the runtime's inbox.
    public func add(to runtime: GameRuntime, sink: @escaping Sink) async {
        await runtime.withCurrentState { state in
            guard let first = encode(state),
                broadcast.add(first: first, sink: sink, onLeave: { [self] in watcherLeft($0) })
            else { return }
            notePeak()
        }
    }

    /// The event could not be encoded (a bug); the call ends and its connection is closed.
    struct UnencodableEvent: Error, CustomStringConvertible {
        var description: String { "the game's state could not be encoded" }
    }

    private func notePeak() {
        let count = broadcast.count
        trim.withLock { $0.joined(count: count) }
    }

    /// Logs a watcher that was dropped; when a burst of watchers is mostly gone (a quarter of its peak left), gives
    /// the memory it used back to the kernel rather than keeping it resident, and again at the next event
    /// (``WatcherBurstTrim``).
    private func watcherLeft(_ departure: VarlinkBroadcast.Departure) {
        if departure == .fellBehind { logger.notice("dropped a watcher that stopped reading") }
        let count = broadcast.count
        if trim.withLock({ $0.left(count: count) }) { MallocTuning.releaseFreeMemory() }
    }

    private func encode(_ event: RuntimeEvent) -> VarlinkEncodedParameters? {
        guard let wire = ShakyAPI.Event(event) else { return nil }
        do {
            return try VarlinkEncodedParameters(encoding: ShakyAPI.GameInterface.WatchReply(event: wire))
        } catch {
            logger.error("cannot encode an event", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

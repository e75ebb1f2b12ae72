import Logging
import ShakyDrivers
import ShakyProtocol
import Synchronization
import Varlink

/// The `Watch` fan-out: each runtime event is mapped to the wire and encoded once, then handed to every watcher.
///
/// The runtime calls ``publish(_:)`` on its inbox, and a watcher joins on the inbox too (``add(_:to:)``), so each
/// watcher hears the state and then every later event, in order.
public final class WatcherHub: Sendable {
    /// Takes one encoded event for a watcher; returns `false` when the watcher is gone or fell too far behind.
    public typealias Sink = @Sendable (VarlinkStreamReply) -> Bool

    private struct Watchers {
        var nextID = 0
        var sinks: [Int: Sink] = [:]
        /// When a burst of watchers that left gives its memory back.
        var trim = WatcherBurstTrim()
    }

    private let watchers = Mutex(Watchers())
    private let logger: Logger

    /// Creates an empty hub.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// How many watchers are attached.
    public var count: Int { watchers.withLock { $0.sinks.count } }

    /// Sends `event` to every watcher, dropping those that cannot take it.
    public func publish(_ event: RuntimeEvent) {
        // After the fan-out: what the last watchers of a burst left behind, once their connections are freed.
        defer { if watchers.withLock({ $0.trim.published() }) { MallocTuning.releaseFreeMemory() } }
        let sinks = watchers.withLock { $0.sinks }
        guard !sinks.isEmpty, let reply = encode(event) else { return }
        var dropped: [Int] = []
        for (id, sink) in sinks where !sink(reply) { dropped.append(id) }
        guard !dropped.isEmpty else { return }
        watchers.withLock { watchers in
            for id in dropped { watchers.sinks[id] = nil }
        }
        for id in dropped { logger.notice("dropped a watcher that stopped reading", metadata: ["watcher": "\(id)"]) }
    }

    /// Adds a watcher to `runtime`'s events: it hears the game as it stands, then every event. Returns its id.
    public func add(to runtime: GameRuntime, sink: @escaping Sink) async -> Int {
        let id = watchers.withLock { watchers in
            watchers.nextID += 1
            return watchers.nextID
        }
        await runtime.withCurrentState { state in
            // On the runtime's inbox: no event is published between this state and the watcher's joining.
            if let reply = encode(state), sink(reply) {
                watchers.withLock { watchers in
                    watchers.sinks[id] = sink
                    watchers.trim.joined(count: watchers.sinks.count)
                }
            }
        }
        return id
    }

    /// Removes a watcher (it hung up).
    ///
    /// When a burst of watchers is mostly gone (a quarter of its peak left), the memory it used goes back to the
    /// kernel rather than staying resident, and again at the next event (``WatcherBurstTrim``).
    public func remove(_ id: Int) {
        let burstOver = watchers.withLock { watchers in
            watchers.sinks.removeValue(forKey: id)
            return watchers.trim.left(count: watchers.sinks.count)
        }
        if burstOver { MallocTuning.releaseFreeMemory() }
    }

    private func encode(_ event: RuntimeEvent) -> VarlinkStreamReply? {
        guard let wire = ShakyAPI.Event(event) else { return nil }
        do {
            return try ShakyAPI.GameInterface.WatchReply(event: wire).streamReply()
        } catch {
            logger.error("cannot encode an event", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

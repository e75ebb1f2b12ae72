import Logging
import ShakyDrivers
import ShakyProtocol
import Synchronization
import Varlink

/// The `Watch` fan-out: each runtime event is mapped to the wire and encoded once, then sent to every watcher
/// through a ``VarlinkBroadcast`` (on a socket, straight to the watchers' connections on their event loops).
///
/// Watchers come in two kinds (`Watch`'s `ticks`): those that hear a tick each second of a countdown, and those that
/// count down on their own clock and hear the countdown only when it changes otherwise than by running
/// (``RuntimeEvent/countdown(phase:remaining:)``). Each kind has its broadcast; every other event goes to both. While
/// nobody hears the ticks, the runtime sleeps through a countdown's seconds (``GameRuntime/setTickListeners(_:)``).
///
/// The runtime calls ``publish(_:)`` on its inbox, and a watcher joins on the inbox too (``watch(_:for:)``), so each
/// watcher hears the state and then every later event, in order. A watcher that falls
/// ``ShakyService/watcherQueueLimit`` events behind is dropped.
public final class WatcherHub: Sendable {
    /// Takes one encoded event for an in-process listener; returns `false` when it cannot take it (it is dropped).
    public typealias Sink = VarlinkBroadcast.Sink

    /// The watchers that hear a tick each second.
    private let tickHearers: VarlinkBroadcast
    /// The watchers that count down on their own clock.
    private let countdownKeepers: VarlinkBroadcast
    /// When a burst of watchers that left gives its memory back.
    private let trim = Mutex(WatcherBurstTrim())
    private let logger: Logger
    /// A crowd of watchers that stop reading (a client's bug, or a flood) is logged at most once a minute.
    private let departures = SharedLogThrottle()
    /// Gives the heap's free memory back to the kernel (``MallocTuning/releaseFreeMemory()``; a counter in tests).
    private let releaseFreeMemory: @Sendable () -> Void
    /// Waits between the trims of a draining burst; throws when the wait is cancelled.
    private let sleep: @Sendable (Duration) async throws -> Void

    /// How long after a burst's trim its memory is trimmed again, and again while watchers keep leaving.
    public static let drainTrimInterval: Duration = .seconds(1)

    /// Creates an empty hub. Tests inject how memory is given back and how the hub waits between trims.
    public init(
        logger: Logger, releaseFreeMemory: @escaping @Sendable () -> Void = MallocTuning.releaseFreeMemory,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.logger = logger
        self.releaseFreeMemory = releaseFreeMemory
        self.sleep = sleep
        tickHearers = VarlinkBroadcast(backlogLimit: ShakyService.watcherQueueLimit)
        countdownKeepers = VarlinkBroadcast(backlogLimit: ShakyService.watcherQueueLimit)
    }

    /// How many watchers are attached.
    public var count: Int { tickHearers.count + countdownKeepers.count }

    /// Whether any watcher hears a tick each second.
    public var ticksHeard: Bool { tickHearers.count > 0 }

    /// Sends `event` to every watcher it is for, dropping those that cannot take it.
    public func publish(_ event: RuntimeEvent) {
        // After the fan-out: what the last watchers of a burst left behind, once their connections are freed.
        defer { if trim.withLock({ $0.published() }) { releaseFreeMemory() } }
        var toTickHearers = tickHearers.count > 0
        var toCountdownKeepers = countdownKeepers.count > 0
        switch event {
        case .action(.tick): toCountdownKeepers = false
        case .countdown: toTickHearers = false
        default: break
        }
        guard toTickHearers || toCountdownKeepers, let parameters = encode(event) else { return }
        if toTickHearers { tickHearers.send(parameters) }
        if toCountdownKeepers { countdownKeepers.send(parameters) }
    }

    /// Lets `runtime` sleep through a countdown's seconds while no watcher hears its ticks.
    public func tellTickListeners(to runtime: GameRuntime) async {
        await runtime.setTickListeners { [self] in ticksHeard }
    }

    /// The replies of the `Watch` call `request` (``VarlinkRequest/current``; `nil` for a caller in this process):
    /// the game as it stands, then every event of `runtime`, with a tick each second when `ticks` (else the
    /// countdown's changes only).
    public func watch(
        _ runtime: GameRuntime, for request: VarlinkRequest?, ticks: Bool = true
    ) async -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        let broadcast = ticks ? tickHearers : countdownKeepers
        let replies = await runtime.withCurrentState { state in
            // On the runtime's inbox: no event is published between this state and the watcher's joining.
            guard let first = encode(state) else {
                return AsyncThrowingStream<VarlinkStreamReply, any Error> { $0.finish(throwing: UnencodableEvent()) }
            }
            let replies = broadcast.subscribe(request, first: first) { [self] in watcherLeft($0) }
            notePeak()
            return replies
        }
        if ticks { await runtime.tickListenerJoined() }
        return replies
    }

    /// Adds an in-process listener to `runtime`'s events: it is handed the game as it stands, then every event (a
    /// tick each second included), on the runtime's inbox.
    public func add(to runtime: GameRuntime, sink: @escaping Sink) async {
        let joined = await runtime.withCurrentState { state in
            guard let first = encode(state),
                tickHearers.add(first: first, sink: sink, onLeave: { [self] in watcherLeft($0) })
            else { return false }
            notePeak()
            return true
        }
        if joined { await runtime.tickListenerJoined() }
    }

    /// The event could not be encoded (a bug); the call ends and its connection is closed.
    struct UnencodableEvent: Error, CustomStringConvertible {
        var description: String { "the game's state could not be encoded" }
    }

    private func notePeak() {
        let count = count
        trim.withLock { $0.joined(count: count) }
    }

    /// Logs a watcher that was dropped; when a burst of watchers is mostly gone (a quarter of its peak left), gives
    /// the memory it used back to the kernel rather than keeping it resident, and again at the next event
    /// (``WatcherBurstTrim``).
    private func watcherLeft(_ departure: VarlinkBroadcast.Departure) {
        if departure == .fellBehind { departures.log(.notice, "dropped a watcher that stopped reading", to: logger) }
        let count = count
        guard trim.withLock({ $0.left(count: count) }) else { return }
        releaseFreeMemory()
        trimWhileDraining()
    }

    /// Trims again after ``drainTrimInterval``, as long as watchers left since the last trim: the connections of the
    /// last watchers to leave are freed after they are removed, and no event may come to trim them (no round open,
    /// or watchers that count the countdown down themselves).
    private func trimWhileDraining() {
        Task { [self] in
            while (try? await sleep(Self.drainTrimInterval)) != nil {
                let (trimsNow, draining) = trim.withLock { burst in (burst.published(), burst.isDraining) }
                if trimsNow { releaseFreeMemory() }
                if !draining { return }
            }
        }
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

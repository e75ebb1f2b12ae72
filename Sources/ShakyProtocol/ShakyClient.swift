import NIOCore
import ShakyCore
import Synchronization
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A typed client of the Shaky Words daemon: one method per method of its Varlink interfaces.
///
/// ```swift
/// let client = try await ShakyClient.connect(socketPath: nil)   // SHAKY_SOCKET or the default sockets
/// defer { Task { await client.close() } }
/// let state = try await client.game.next()
/// ```
///
/// Its typed calls, generated from the interface files, are grouped by interface: ``game``, ``packs``,
/// ``sensor``, ``settings``. Calls may run concurrently on the one connection; a streaming call (`Watch`)
/// opens a connection of its own, so calls made while watching are answered at once. Every error is a
/// ``ShakyClientError``. When the daemon has closed the connection (it closes one left idle for 10 minutes), the
/// next call connects again first: a call is never sent twice.
///
/// A daemon newer than this client may send values its interfaces do not list (a new event kind, a new value of an
/// enum). An optional field with one reads as absent (`nil`); a streamed reply (`Watch`) that holds one elsewhere
/// is skipped, and the stream goes on (``reportSkippedReplies(to:)`` hears of it), unless it is the whole game
/// (`Watch`'s `state` event), which ends the stream; any other reply with one fails with
/// ``ShakyClientError/newerDaemon(_:)``.
public final class ShakyClient: Sendable {
    /// The socket this client is connected to.
    public let socketPath: String
    private let state: Mutex<(connection: VarlinkClient, closed: Bool)>
    /// The unknown values that made a stream skip a reply so far, and who hears of a new one.
    private let skips = Mutex<(seen: Set<UnknownReplyValue>, report: (@Sendable (UnknownReplyValue) -> Void)?)>(
        ([], nil))

    private init(socketPath: String, connection: VarlinkClient) {
        self.socketPath = socketPath
        state = Mutex((connection, false))
    }

    /// The connection to call on: the one held, or a new one when the daemon closed that one while it was idle.
    var connection: VarlinkClient {
        get async throws(VarlinkError) {
            let (current, closed) = state.withLock { $0 }
            guard !current.isOpen, !closed else { return current }
            let fresh = try await VarlinkClient.connect(
                unixSocketPath: socketPath, maximumMessageLength: Self.largestReply, replyTimeout: Self.replyTimeout)
            // Two calls may reconnect at once: the first one stored is kept, the other closed.
            let (kept, spare) = state.withLock { state -> (VarlinkClient, VarlinkClient?) in
                if state.connection.isOpen || state.closed { return (state.connection, fresh) }
                state.connection = fresh
                return (fresh, nil)
            }
            if let spare { await spare.close() }
            return kept
        }
    }

    /// Connects to the daemon at `socketPath`, or when `nil` to the first of `defaults.clientSockets`
    /// that answers (`SHAKY_SOCKET`, then the user's daemon, then the system daemon).
    ///
    /// Throws ``ShakyClientError/daemonUnreachable(paths:reason:)`` naming every path tried.
    public static func connect(
        socketPath: String?, defaults: DefaultPaths = DefaultPaths()
    ) async throws(ShakyClientError) -> ShakyClient {
        try await connect(
            trying: socketPath.map { [$0] } ?? defaults.clientSockets,
            privateDirectory: socketPath == nil ? defaults.fallbackSocketDirectory : nil)
    }

    /// Connects to the first of `paths` where a daemon answers.
    ///
    /// A path inside `privateDirectory` is tried only when that folder passes
    /// ``PrivateSocketDirectory/verify(_:)``, so that a folder another user made in `/tmp` is never trusted.
    /// Throws ``ShakyClientError/daemonUnreachable(paths:reason:)`` naming every path tried.
    ///
    /// - Parameter pause: waits the given time before a connect is tried again while the daemon's queue of new
    ///   connections is full (``queueFullWaits``); a test passes its own to make room meanwhile.
    public static func connect(
        trying paths: [String], privateDirectory: String? = nil,
        pausingWhileQueueFull pause: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) async throws(ShakyClientError) -> ShakyClient {
        var reasons: [String] = []
        for path in paths {
            if let privateDirectory, path.hasPrefix(privateDirectory + "/") {
                do {
                    try PrivateSocketDirectory.verify(privateDirectory)
                } catch {
                    reasons.append("\(error.path): \(error.reason)")
                    continue
                }
            }
            do {
                let connection = try await connectWaitingForRoom(to: path, pause: pause)
                return ShakyClient(socketPath: path, connection: connection)
            } catch {
                if case .connectionFailed(_, let underlying) = error {
                    reasons.append(ShakyClientError.reason(underlying, path: path))
                } else {
                    reasons.append(error.description)
                }
            }
        }
        let distinct = reasons.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        throw .daemonUnreachable(paths: paths, reason: distinct.joined(separator: "; "))
    }

    /// How long, at most, a connect waits while the daemon's queue of new connections is full, in steps that double.
    public static let queueFullWaits: [Duration] = [10, 20, 40, 80, 160, 320, 640, 1280].map { .milliseconds($0) }

    /// Connects to `path`, trying again for about 2.5 s while the daemon's queue of new connections is full: a
    /// non-blocking connect fails with `EAGAIN` at once where a blocking one would wait for room.
    private static func connectWaitingForRoom(
        to path: String, pause: @Sendable (Duration) async -> Void
    ) async throws(VarlinkError) -> VarlinkClient {
        var waits = queueFullWaits[...]
        while true {
            do {
                return try await VarlinkClient.connect(
                    unixSocketPath: path, maximumMessageLength: largestReply, replyTimeout: replyTimeout)
            } catch .connectionFailed(let failedPath, let underlying) {
                guard (underlying as? IOError)?.errnoCode == EAGAIN, let wait = waits.popFirst() else {
                    throw .connectionFailed(path: failedPath, underlying: underlying)
                }
                await pause(wait)
            }
        }
    }

    /// How long a call waits for the daemon's reply: far longer than the slowest call takes (a 16 MiB pack imported
    /// on a Pi's SD card), and far shorter than forever, which is how long a socket that systemd holds for a daemon
    /// that fails to start would keep a client waiting. Streams (`Watch`) are not timed.
    public static let replyTimeout = Duration.seconds(60)

    /// The longest reply taken from the daemon: a large pack (up to 16 MiB as a file) shown or exported in one
    /// reply. The daemon's own limit on what it reads stays 1 MiB per message.
    public static let largestReply = 64 << 20

    /// Closes the connection; later calls fail instead of connecting again.
    public func close() async {
        let connection = state.withLock { state in
            state.closed = true
            return state.connection
        }
        await connection.close()
    }

    /// Has `report` told of each value that makes a stream of this client skip a reply, once per method, field and
    /// value for the life of the client (a new event kind comes again and again; it is said once).
    public func reportSkippedReplies(to report: @escaping @Sendable (UnknownReplyValue) -> Void) {
        skips.withLock { $0.report = report }
    }

    /// Notes that a stream skipped a reply for `unknown`, and tells of it the first time.
    func skipped(_ unknown: UnknownReplyValue) {
        let report = skips.withLock { $0.seen.insert(unknown).inserted ? $0.report : nil }
        report?(unknown)
    }

    /// `parameters`, a reply to `method`, decoded as a reply (``JSONValueDecoder/forReplies``): an optional enum
    /// field with a value this client does not know is `nil`; one elsewhere is ``ShakyClientError/newerDaemon(_:)``,
    /// any other mismatch a ``ShakyClientError/protocolError(_:)``.
    static func decode<Reply: Decodable>(
        _ parameters: VarlinkObject, as type: Reply.Type, from method: String
    ) throws(ShakyClientError) -> Reply {
        do {
            // Whatever the daemon says is made printable before any of it can reach a terminal.
            return try JSONValueDecoder.forReplies.decode(Reply.self, from: .object(parameters.printable))
        } catch let unknown as VarlinkUnknownEnumValue {
            throw .newerDaemon(UnknownReplyValue(unknown, method: method))
        } catch {
            throw .protocolError("the reply of \(method) does not match its interface: \(error)")
        }
    }
}

extension ShakyClient {
    /// `io.shakywords.Game`: the game in play, its history and leaderboard.
    public var game: ShakyAPI.GameInterface.Client<ShakyClient> { .init(self) }

    /// `io.shakywords.Packs`: the quiz packs.
    public var packs: ShakyAPI.PacksInterface.Client<ShakyClient> { .init(self) }

    /// `io.shakywords.Sensor`: the accelerometer.
    public var sensor: ShakyAPI.SensorInterface.Client<ShakyClient> { .init(self) }

    /// `io.shakywords.Settings`: the daemon's live settings.
    public var settings: ShakyAPI.SettingsInterface.Client<ShakyClient> { .init(self) }
}

import Logging
import NIOCore
import NIOPosix
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Serves a ``VarlinkService`` on a Unix socket: one task per connection, calls handled strictly in order.
///
/// ```swift
/// let server = try await VarlinkServer.bind(to: .unixSocket(path: path), service: service)
/// try await server.run()   // until the task is cancelled
/// ```
///
/// Per connection: each message is answered before the next is read (a call pipelined behind a `more`
/// stream is answered after the stream's final reply); malformed input or a message over 1 MiB closes
/// the connection without a reply. When the client hangs up (end of input or a failed write), the
/// running call's task is cancelled, so a streaming handler learns it through `onTermination`. A connection
/// with no call running (a `more` stream is one) that sends nothing for the idle timeout is closed.
///
/// When accepting fails (the process is out of file descriptors: `EMFILE`, `ENFILE`), the server stops
/// accepting for a second at a time (new clients wait in the listen backlog) and logs it, at most once a minute,
/// and once that it accepts again.
public final class VarlinkServer: Sendable {
    /// Where a server listens.
    public enum Address: Sendable, Equatable {
        /// A Unix socket at a path: the parent directory is created, a stale socket file (one nobody
        /// answers on) is replaced, and the socket gets mode 0660 and the socket group if it exists.
        case unixSocket(path: String)
        /// A socket that is already bound and listening, such as the one systemd passes as fd 3.
        case inheritedSocket(CInt)
    }

    /// How many connections a server serves at once, in all and per user (as systemd's sd-varlink does);
    /// one more is closed as soon as it is accepted, and the refusal is logged once until the count falls.
    public struct ConnectionLimits: Sendable, Equatable {
        /// The most connections in all (default 4096).
        public var total: Int
        /// The most connections of one user id (default 1024), so one user cannot lock the others out.
        public var perUser: Int

        /// Creates limits.
        public init(total: Int = 4096, perUser: Int = 1024) {
            self.total = total
            self.perUser = perUser
        }
    }

    /// The listen backlog: room for a burst of connects while the accept loop catches up.
    public static let backlog: Int32 = 4096

    /// How long a connection may stay silent with no call running before it is closed (10 minutes). A client
    /// that holds a connection between calls reconnects when it finds it closed.
    public static let defaultIdleTimeout: Duration = .seconds(600)

    /// The address the server was bound to.
    public let address: Address
    private let service: VarlinkService
    private let serverChannel: NIOAsyncChannel<VarlinkConnection, Never>
    private let limits: ConnectionLimits
    private let connections = Mutex(ConnectionCount())
    private let idleTimeout: Duration?
    private let clock: ServerClock
    private let logger: Logger

    /// The connections being served, in all and per user, and whether a refusal was logged since the last
    /// time there was room.
    private struct ConnectionCount {
        var total = 0
        var perUser: [uid_t: Int] = [:]
        /// What clients can make happen again and again (connections refused, malformed messages) is logged at most
        /// once a minute.
        var logThrottle = LogThrottle()
    }

    private init(
        address: Address, service: VarlinkService, serverChannel: NIOAsyncChannel<VarlinkConnection, Never>,
        limits: ConnectionLimits, idleTimeout: Duration?, clock: ServerClock, logger: Logger
    ) {
        self.address = address
        self.service = service
        self.serverChannel = serverChannel
        self.limits = limits
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.logger = logger
    }

    /// Binds a listening socket for `service`; call ``run()`` to accept connections.
    ///
    /// - Parameters:
    ///   - socketGroup: the group given to a socket file when that group exists (`nil`: leave it).
    ///   - maximumMessageLength: the longest message accepted; longer ones close the connection.
    ///   - limits: how many connections are served at once.
    ///   - idleTimeout: how long a connection with no call running may send nothing before it is closed (`nil`:
    ///     never closed for that).
    ///   - clock: the clock the idle timeout is measured on (`nil`: the continuous clock, sleeping on the server's
    ///     event loop, ``EventLoopClock``).
    public static func bind(
        to address: Address, service: VarlinkService, socketGroup: String? = nil,
        maximumMessageLength: Int = VarlinkFrameDecoder.defaultMaximumFrameLength,
        limits: ConnectionLimits = ConnectionLimits(),
        idleTimeout: Duration? = defaultIdleTimeout, clock: (any Clock<Duration>)? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "varlink.server")
    ) async throws -> VarlinkServer {
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: backlog)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff(logger: logger))
                }
            }
        let initializer: @Sendable (any Channel) -> EventLoopFuture<VarlinkConnection> = { channel in
            VarlinkConnection.make(on: channel, maximumMessageLength: maximumMessageLength)
        }
        let serverChannel: NIOAsyncChannel<VarlinkConnection, Never>
        switch address {
        case .unixSocket(let path):
            try UnixSocketFile.prepare(path: path)
            do {
                serverChannel = try await bootstrap.bind(
                    unixDomainSocketPath: path, childChannelInitializer: initializer)
            } catch {
                throw UnixSocketFile.bindFailure(path: path, error: error)
            }
            do {
                try UnixSocketFile.restrict(path: path, group: socketGroup, logger: logger)
            } catch {
                try? await serverChannel.channel.close()
                throw error
            }
        case .inheritedSocket(let descriptor):
            try checkSyscall("mark the inherited socket close-on-exec") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            serverChannel = try await bootstrap.bind(descriptor, childChannelInitializer: initializer)
        }
        let idleClock: any Clock<Duration> = clock ?? EventLoopClock(on: eventLoopGroup.any())
        return VarlinkServer(
            address: address, service: service, serverChannel: serverChannel, limits: limits,
            idleTimeout: idleTimeout, clock: ServerClock(idleClock), logger: logger)
    }

    /// Accepts and serves connections until the task is cancelled; then closes them all, removes the
    /// socket file it created, and returns.
    public func run() async throws {
        defer {
            if case .unixSocket(let path) = address { removeSocketFile(at: path) }
        }
        do {
            try await serverChannel.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        guard admit(connection.peer.uid) else {
                            connection.markServed()
                            group.addTask { try? await connection.asyncChannel.executeThenClose { _, _ in } }
                            continue
                        }
                        group.addTask {
                            await self.serve(connection)
                            self.release(connection.peer.uid)
                        }
                    }
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// Removes the socket file the server created; one already gone is fine, any other failure is logged.
    private func removeSocketFile(at path: String) {
        do {
            try checkSyscall("unlink") { unlink(path) }
        } catch let error where error.code == ENOENT {
            return
        } catch {
            logger.warning("cannot remove the socket file \(path): \(error.reason)")
        }
    }

    /// Counts a new connection of `uid` in, or says there is no room for it (logging that at most once a minute).
    private func admit(_ uid: uid_t) -> Bool {
        let (admitted, heldBack) = connections.withLock { count -> (Bool, Int?) in
            guard count.total < limits.total, count.perUser[uid, default: 0] < limits.perUser else {
                return (false, count.logThrottle.admit("refused"))
            }
            count.total += 1
            count.perUser[uid, default: 0] += 1
            return (true, nil)
        }
        if let heldBack {
            let message =
                "refusing connections: \(limits.total) in all or \(limits.perUser) of one user (uid \(uid)) are open"
            logger.warning("\(LogThrottle.message(message, heldBack: heldBack))")
        }
        return admitted
    }

    /// Counts a finished connection of `uid` out.
    private func release(_ uid: uid_t) {
        connections.withLock { count in
            count.total -= 1
            count.perUser[uid, default: 1] -= 1
            if count.perUser[uid] == 0 { count.perUser[uid] = nil }
        }
    }

    /// Serves one connection until the client hangs up, breaks the protocol, or the server stops.
    private func serve(_ connection: VarlinkConnection) async {
        connection.markServed()
        let channel = connection.channel
        let peer = connection.peer
        var connectionLogger = logger
        connectionLogger[metadataKey: "peer"] = "\(peer)"
        let logger = connectionLogger
        let activity = ConnectionActivity(since: clock.now())
        do {
            try await connection.asyncChannel.executeThenClose { inbound, outbound in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            try await self.answerCalls(
                                from: inbound, to: outbound, channel: channel, peer: peer, activity: activity,
                                logger: logger)
                        } catch {
                            logger.debug("connection ends: \(error)")
                        }
                        channel.close(promise: nil)
                    }
                    group.addTask {
                        // The client hung up (or the channel failed): stop whatever call is running.
                        try? await channel.closeFuture.get()
                    }
                    if let idleTimeout = self.idleTimeout {
                        group.addTask {
                            guard await self.waitUntilIdle(activity, for: idleTimeout) else { return }
                            logger.debug("closing the connection: idle for \(idleTimeout)")
                            channel.close(promise: nil)
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("closing the connection failed: \(error)")
        }
    }

    /// Returns `true` once `activity` shows no call running and nothing received for `timeout`; `false` when
    /// cancelled (the connection ended first).
    private func waitUntilIdle(_ activity: ConnectionActivity, for timeout: Duration) async -> Bool {
        var deadline = clock.now() + timeout
        while true {
            do {
                try await clock.sleepUntil(deadline)
            } catch {
                return false
            }
            let now = clock.now()
            guard let quietSince = activity.quietSince() else {
                // A call is running (a `more` stream, say): look again a whole timeout later.
                deadline = now + timeout
                continue
            }
            if quietSince + timeout <= now { return true }
            deadline = quietSince + timeout
        }
    }

    private func answerCalls(
        from inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        channel: any Channel, peer: VarlinkPeerCredentials, activity: ConnectionActivity, logger: Logger
    ) async throws {
        for try await frame in inbound {
            activity.callStarted()
            defer { activity.callEnded(at: clock.now()) }
            let call: VarlinkCall
            do {
                call = try VarlinkCall(frame: frame.readableBytesView)
            } catch {
                if let heldBack = connections.withLock({ $0.logThrottle.admit("malformed") }) {
                    logger.notice("\(LogThrottle.message("closing the connection: \(error)", heldBack: heldBack))")
                }
                return
            }
            try await service.respond(
                to: call, from: peer, on: channel, hangUp: { [channel] in channel.close(promise: nil) }
            ) { reply in
                try await outbound.write(.varlinkFrame(reply, allocator: channel.allocator))
            }
        }
    }
}

/// A freshly accepted connection: its channels and who is on the other end.
///
/// When the server stops, connections accepted but not yet served are dropped by NIO; one that was never
/// served closes itself on deinit (NIO requires `executeThenClose` on every `NIOAsyncChannel`).
final class VarlinkConnection: Sendable {
    let asyncChannel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let channel: any Channel
    let peer: VarlinkPeerCredentials
    private let served = Atomic(false)

    init(asyncChannel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, channel: any Channel, peer: VarlinkPeerCredentials) {
        self.asyncChannel = asyncChannel
        self.channel = channel
        self.peer = peer
    }

    func markServed() {
        served.store(true, ordering: .relaxed)
    }

    deinit {
        guard !served.load(ordering: .relaxed) else { return }
        let asyncChannel = asyncChannel
        Task { try? await asyncChannel.executeThenClose { _, _ in } }
    }

    /// The credentials layout of `struct ucred` (pid, uid, gid), which Swift's Glibc module does not export.
    private struct UnixCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func make(on channel: any Channel, maximumMessageLength: Int) -> EventLoopFuture<VarlinkConnection> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let credentials: EventLoopFuture<UnixCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        // The peer's supplementary groups as the kernel holds them (SO_PEERGROUPS); `nil` when there are more
        // than fit, or the kernel predates the option.
        let groups: EventLoopFuture<[gid_t]?> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerGroupsOption)
        ).map { (list: PeerGroupList) in Optional(list.groups) }.recover { _ in nil }
        return credentials.and(groups).flatMapThrowing { credentials, groups in
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(VarlinkFrameDecoder(maximumFrameLength: maximumMessageLength)))
            return VarlinkConnection(
                asyncChannel: try NIOAsyncChannel(wrappingChannelSynchronously: channel),
                channel: channel,
                peer: VarlinkPeerCredentials(
                    uid: credentials.uid, gid: credentials.gid, pid: credentials.pid,
                    groups: groups ?? VarlinkPeerCredentials.groups(ofProcess: credentials.pid)))
        }
    }

    /// `SO_PEERGROUPS` (Linux 4.13), which Swift's Glibc module does not export.
    private static let peerGroupsOption: CInt = 59

    /// Room for the groups `SO_PEERGROUPS` reports; the kernel lists them in ascending order, and the
    /// unused tail stays zero.
    private struct PeerGroupList: Sendable {
        var storage = InlineArray<256, UInt32>(repeating: 0)

        /// The groups reported: the zero padding after the last one dropped.
        var groups: [gid_t] {
            var groups = (0..<storage.count).map { storage[$0] }
            while let last = groups.last, last == 0 { groups.removeLast() }
            return groups
        }
    }
}

/// When a connection last did something: a call running, or the reading when the last one ended.
final class ConnectionActivity: Sendable {
    private struct State {
        var running = false
        var lastActivity: Duration
    }
    private let state: Mutex<State>

    init(since reading: Duration) {
        state = Mutex(State(lastActivity: reading))
    }

    func callStarted() {
        state.withLock { $0.running = true }
    }

    func callEnded(at reading: Duration) {
        state.withLock {
            $0.running = false
            $0.lastActivity = reading
        }
    }

    /// The reading since when the connection is quiet, or `nil` while a call runs.
    func quietSince() -> Duration? {
        state.withLock { $0.running ? nil : $0.lastActivity }
    }
}

/// Any `Clock<Duration>` read as the time since the server started, so that readings can be kept without the
/// clock's own instant type.
struct ServerClock: Sendable {
    let now: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleepUntil = { reading in try await clock.sleep(until: start.advanced(by: reading), tolerance: nil) }
    }
}

/// Stops accepting for a second when accepting fails (the process is out of file descriptors, typically), and logs
/// it at most once a minute, and once that it accepts again.
///
/// NIO leaves the listening socket registered for reading after a failed accept, so the event loop would wake at
/// once and fail again, at 100 % CPU (its own accept back-off waits only for the next `read`, which never comes).
/// Turning `autoRead` off takes the socket out of the poll set; turning it on a second later tries again.
final class AcceptBackoff: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never

    /// How long accepting pauses after a failure.
    static let pause = TimeAmount.seconds(1)
    /// The least time between two failure messages.
    static let quietTime = TimeAmount.seconds(60)

    private let logger: Logger
    private var paused = false
    private var lastLogged: NIODeadline?
    private var recoveryToLog = false

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if recoveryToLog {
            recoveryToLog = false
            logger.notice("accepting connections again")
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        // While paused, the resumption asks for the next read itself.
        guard !paused else { return }
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError else {
            context.fireErrorCaught(error)
            return
        }
        log(error)
        if !paused, let options = context.channel.syncOptions {
            paused = true
            try? options.setOption(.autoRead, value: false)
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.pause) {
                self.paused = false
                try? options.setOption(.autoRead, value: true)
            }
        }
        context.fireErrorCaught(error)
    }

    private func log(_ error: IOError) {
        let now = NIODeadline.now()
        guard lastLogged.map({ now - $0 >= Self.quietTime }) ?? true else { return }
        lastLogged = now
        recoveryToLog = true
        let reason =
            error.errnoCode == EMFILE || error.errnoCode == ENFILE
            ? "the process is out of file descriptors (errno \(error.errnoCode); raise LimitNOFILE=)" : "\(error)"
        logger.error("cannot accept connections: \(reason); new clients wait, trying again every second")
    }
}

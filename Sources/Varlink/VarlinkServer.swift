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
/// try await server.run()   // until the task is cancelled, or server.shutDownGracefully() has drained it
/// ```
///
/// Per connection: each message is answered before the next is read (a call pipelined behind a `more`
/// stream is answered after the stream's final reply); malformed input or a message over 1 MiB closes
/// the connection without a reply, and so does a message that takes the bytes held over the bounds of
/// ``ConnectionLimits``. When the client hangs up (end of input or a failed write), the
/// running call's task is cancelled, so a streaming handler learns it through `onTermination`. A connection
/// with no call running (a `more` stream is one) that sends nothing for the idle timeout is closed.
///
/// When accepting fails (the process is out of file descriptors: `EMFILE`, `ENFILE`), the server stops
/// accepting for a second at a time (new clients wait in the listen backlog) and logs it, at most once a minute,
/// and once that it accepts again.
///
/// Stopping: cancelling ``run()``'s task closes every connection at once. ``shutDownGracefully()`` drains instead,
/// as a daemon asked to stop should:
/// - The listening socket closes at once and its file is removed, so new clients are refused (on a socket systemd
///   passed, they wait in systemd's backlog for the next start). Connections with no call running close at once,
///   and so do calls made with `more` (a stream, which may never end: its client reconnects); what was already
///   written to them is sent first.
/// - A call already running gets its reply; its connection closes once the reply is sent. No call is started
///   after the drain began: one sent behind the running call is never read. So a client whose connection closes
///   with no reply knows that its call did not run.
/// - The drain waits at most its bound (the `drainTimeout` given to `bind`, ``defaultDrainTimeout`` by default);
///   then what is still open is closed, the calls cut off are logged, their handlers are left to end on their own,
///   and ``run()`` returns: neither a handler nor a client that never reads its reply holds the server past the
///   bound.
public final class VarlinkServer: Sendable {
    /// Where a server listens.
    public enum Address: Sendable, Equatable {
        /// A Unix socket at a path: the parent directory is created, a stale socket file (one nobody
        /// answers on) is replaced, and the socket gets mode 0660 and the socket group if it exists.
        case unixSocket(path: String)
        /// A socket that is already bound and listening, such as the one systemd passes as fd 3.
        case inheritedSocket(CInt)
    }

    /// Makes ready to listen at `path` as ``bind(to:service:socketGroup:maximumMessageLength:limits:replyBacklog:idleTimeout:drainTimeout:clock:eventLoopGroup:logger:)``
    /// would (the parent directory created, a stale socket file removed), or throws why a server cannot listen
    /// there: a path too long, a file in the way, another server listening. For a program that would rather not
    /// start anything else (open a database, say) when it cannot serve.
    public static func prepareToListen(at path: String) throws {
        try UnixSocketFile.prepare(path: path)
    }

    /// How many connections a server serves at once, in all and per user (as systemd's sd-varlink does);
    /// one more is closed as soon as it is accepted, and the refusal is logged once until the count falls.
    ///
    /// And how many bytes of messages it holds (received in part, or whole and not yet answered), in all and per
    /// user, beyond the first 4 KiB of each connection's (``VarlinkMessageBudget``): a connection whose message
    /// would go over is closed, and that is logged at most once a minute.
    public struct ConnectionLimits: Sendable, Equatable {
        /// The most connections in all (default 4096).
        public var total: Int
        /// The most connections of one user id (default 1024), so one user cannot lock the others out.
        public var perUser: Int
        /// The most bytes of messages held in all (default 64 MiB).
        public var heldMessageBytes: Int
        /// The most bytes of messages held for one user id (default 16 MiB: sixteen of the longest messages).
        public var heldMessageBytesPerUser: Int

        /// Creates limits.
        public init(
            total: Int = 4096, perUser: Int = 1024, heldMessageBytes: Int = 64 << 20,
            heldMessageBytesPerUser: Int = 16 << 20
        ) {
            self.total = total
            self.perUser = perUser
            self.heldMessageBytes = heldMessageBytes
            self.heldMessageBytesPerUser = heldMessageBytesPerUser
        }
    }

    /// The listen backlog: room for a burst of connects while the accept loop catches up.
    public static let backlog: Int32 = 4096

    /// How long a connection may stay silent with no call running before it is closed (10 minutes). A client
    /// that holds a connection between calls reconnects when it finds it closed.
    public static let defaultIdleTimeout: Duration = .seconds(600)

    /// How long a graceful stop (``shutDownGracefully()``) waits for the calls running to reply before it closes
    /// their connections (10 s): time for a call that takes seconds, and well under the time systemd gives a
    /// service to stop (`TimeoutStopSec=`, 90 s unless the unit says otherwise), leaving room for what the daemon
    /// does after.
    public static let defaultDrainTimeout: Duration = .seconds(10)

    /// The address the server was bound to.
    public let address: Address
    private let service: VarlinkService
    private let serverChannel: NIOAsyncChannel<VarlinkConnection, Never>
    private let limits: ConnectionLimits
    private let connections = Mutex(ConnectionCount())
    /// The bytes of messages held, over all connections.
    let messageBudget: VarlinkMessageBudget
    private let idleTimeout: Duration?
    private let drainTimeout: Duration
    private let clock: ServerClock
    private let logger: Logger
    /// The connections being served and what each one runs, for a graceful stop.
    private let drain = Mutex(DrainState())
    /// Finished when a graceful stop begins; the drain's bound is measured from then.
    private let drainBegins: AsyncStream<Void>
    private let drainBeginsContinuation: AsyncStream<Void>.Continuation
    /// Set once the socket file was removed, so that a later removal cannot take a new daemon's socket.
    private let socketFileRemoved = Atomic(false)

    /// The connections being served, in all and per user, and whether a refusal was logged since the last
    /// time there was room.
    private struct ConnectionCount {
        var total = 0
        var perUser: [uid_t: Int] = [:]
        /// What clients can make happen again and again (connections refused, malformed messages) is logged at most
        /// once a minute.
        var logThrottle = LogThrottle()
    }

    /// The connections being served, and when a graceful stop began.
    private struct DrainState {
        /// The clock's reading when ``shutDownGracefully()`` was called; `nil` while serving.
        var began: Duration?
        var nextIdentifier = 0
        var connections: [Int: ServedConnection] = [:]
    }

    private init(
        address: Address, service: VarlinkService, serverChannel: NIOAsyncChannel<VarlinkConnection, Never>,
        limits: ConnectionLimits, messageBudget: VarlinkMessageBudget, idleTimeout: Duration?, drainTimeout: Duration,
        clock: ServerClock, logger: Logger
    ) {
        self.address = address
        self.service = service
        self.serverChannel = serverChannel
        self.limits = limits
        self.messageBudget = messageBudget
        self.idleTimeout = idleTimeout
        self.drainTimeout = drainTimeout
        self.clock = clock
        self.logger = logger
        (drainBegins, drainBeginsContinuation) = AsyncStream.makeStream()
    }

    /// Binds a listening socket for `service`; call ``run()`` to accept connections.
    ///
    /// - Parameters:
    ///   - socketGroup: the group given to a socket file when that group exists (`nil`: leave it).
    ///   - maximumMessageLength: the longest message accepted; longer ones close the connection.
    ///   - limits: how many connections are served at once, and how many bytes of their messages are held.
    ///   - replyBacklog: the replies written and not yet read, at whose bound large replies wait
    ///     (``VarlinkRequest/waitForRoomToReply()``).
    ///   - idleTimeout: how long a connection with no call running may send nothing before it is closed (`nil`:
    ///     never closed for that).
    ///   - drainTimeout: how long a graceful stop waits for the calls running to reply (``shutDownGracefully()``).
    ///   - clock: the clock the idle timeout and the drain's bound are measured on (`nil`: the continuous clock,
    ///     sleeping on the server's event loop, ``EventLoopClock``).
    public static func bind(
        to address: Address, service: VarlinkService, socketGroup: String? = nil,
        maximumMessageLength: Int = VarlinkFrameDecoder.defaultMaximumFrameLength,
        limits: ConnectionLimits = ConnectionLimits(), replyBacklog: VarlinkReplyBacklog = VarlinkReplyBacklog(),
        idleTimeout: Duration? = defaultIdleTimeout, drainTimeout: Duration = defaultDrainTimeout,
        clock: (any Clock<Duration>)? = nil,
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
        let messageBudget = VarlinkMessageBudget(limits: limits)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<VarlinkConnection> = { channel in
            VarlinkConnection.make(
                on: channel, maximumMessageLength: maximumMessageLength, messageBudget: messageBudget,
                replyBacklog: replyBacklog)
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
            messageBudget: messageBudget, idleTimeout: idleTimeout, drainTimeout: drainTimeout,
            clock: ServerClock(idleClock), logger: logger)
    }

    /// Accepts and serves connections until the task is cancelled, or until a graceful stop
    /// (``shutDownGracefully()``) has drained them; removes the socket file it created, and returns.
    ///
    /// Cancelled, it closes every connection at once; a graceful stop lets the calls running reply first.
    public func run() async throws {
        defer {
            if case .unixSocket(let path) = address { removeSocketFile(at: path) }
        }
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await self.acceptAndServe()
                    return true
                }
                group.addTask {
                    await self.cutOffWhenTheDrainTimesOut()
                    return false
                }
                // Until serving ends: the drain's bound only closes what is left, and serving ends after it.
                while let servingEnded = try await group.next(), !servingEnded {}
                group.cancelAll()
            }
        } catch is CancellationError {
            return
        }
    }

    /// Begins a graceful stop: stops accepting at once, closes the connections with no call running and those
    /// running a `more` call, and lets each call running reply before its connection closes; after the drain's
    /// bound, closes what is left. ``run()`` returns when every connection is closed. Calling it again does
    /// nothing.
    public func shutDownGracefully() {
        let now = clock.now()
        let stop: (closing: [any Channel], waiting: [ServedConnection])? = drain.withLock { state in
            guard state.began == nil else { return nil }
            state.began = now
            var closing: [any Channel] = []
            var waiting: [ServedConnection] = []
            for connection in state.connections.values {
                if let call = connection.call, !call.more {
                    waiting.append(connection)
                } else {
                    closing.append(connection.channel)
                }
            }
            return (closing, waiting)
        }
        guard let stop else { return }
        serverChannel.channel.close(promise: nil)
        if case .unixSocket(let path) = address { removeSocketFile(at: path) }
        for channel in stop.closing { Self.closeAfterWrites(channel) }
        if stop.waiting.isEmpty {
            logger.debug("stopping: no call is running")
        } else {
            let calls = stop.waiting.map(\.callDescription).joined(separator: ", ")
            logger.info("stopping: waiting up to \(drainTimeout) for the calls running to reply: \(calls)")
        }
        drainBeginsContinuation.finish()
    }

    /// Once a graceful stop began, sleeps for the drain's bound, then closes every connection still open, logging
    /// the calls cut off, and leaves their handlers behind. Returns at once when cancelled.
    private func cutOffWhenTheDrainTimesOut() async {
        for await _ in drainBegins {}
        guard let began = drain.withLock({ $0.began }) else { return }
        do {
            try await clock.sleepUntil(began + drainTimeout)
        } catch {
            return
        }
        let left = drain.withLock { Array($0.connections.values) }
        // A stream's connection has been closing since the stop began, and a call that replied is done: what holds
        // such a connection is a client that does not read what was sent, not a call.
        let calls = left.filter { $0.call.map { !$0.more && !$0.replied } ?? false }.map(\.callDescription)
        if !calls.isEmpty {
            let list = calls.joined(separator: ", ")
            logger.warning("stopping: the calls running did not reply within \(drainTimeout); cut off: \(list)")
        }
        let unread = left.count - calls.count
        if unread > 0 {
            logger.notice("stopping: closing \(unread) connections whose clients did not read what was sent")
        }
        for connection in left {
            connection.channel.close(promise: nil)
            connection.callsEnded.open()
        }
    }

    /// Closes `channel` once what was written to it is sent, so that its client reads every reply whole before the
    /// end of the connection.
    private static func closeAfterWrites(_ channel: any Channel) {
        channel.close(mode: .output).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Accepts connections and serves each in a task of its own, until the listening socket closes and every
    /// connection has ended.
    private func acceptAndServe() async throws {
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
    }

    /// Removes the socket file the server created, once; one already gone is fine, any other failure is logged.
    private func removeSocketFile(at path: String) {
        guard !socketFileRemoved.exchange(true, ordering: .acquiringAndReleasing) else { return }
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

    /// Registers a connection being served; `nil` once a graceful stop began (the connection is then closed).
    private func register(_ channel: any Channel, peer: VarlinkPeerCredentials, callsEnded: Latch) -> Int? {
        drain.withLock { state in
            guard state.began == nil else { return nil }
            state.nextIdentifier += 1
            state.connections[state.nextIdentifier] = ServedConnection(
                channel: channel, peer: peer, callsEnded: callsEnded)
            return state.nextIdentifier
        }
    }

    private func unregister(_ identifier: Int) {
        _ = drain.withLock { $0.connections.removeValue(forKey: identifier) }
    }

    /// Marks `call` running on connection `identifier`; `false` once a graceful stop began: the call is not started.
    private func startCall(_ call: VarlinkCall, on identifier: Int) -> Bool {
        drain.withLock { state in
            guard state.began == nil else { return false }
            state.connections[identifier]?.call = RunningCall(method: call.method, more: call.more)
            return true
        }
    }

    /// Marks the call on connection `identifier` answered; `false` once a graceful stop began: the connection then
    /// closes as soon as the reply is written.
    private func finishCall(on identifier: Int) -> Bool {
        drain.withLock { state in
            guard state.began == nil else {
                state.connections[identifier]?.call?.replied = true
                return false
            }
            state.connections[identifier]?.call = nil
            return true
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
        let callsEnded = Latch()
        guard let identifier = register(channel, peer: peer, callsEnded: callsEnded) else {
            // Accepted just as a graceful stop began: closed before any call.
            try? await connection.asyncChannel.executeThenClose { _, _ in }
            return
        }
        defer { unregister(identifier) }
        let activity = ConnectionActivity(since: clock.now())
        do {
            try await connection.asyncChannel.executeThenClose { inbound, outbound in
                // The calls run in a task of their own, which the end of a graceful stop can leave behind when a
                // handler does not return (its connection closed, it can send nothing).
                let calls = Task {
                    defer { callsEnded.open() }
                    do {
                        try await self.answerCalls(
                            from: inbound, to: outbound, connection: identifier, channel: channel, peer: peer,
                            messages: connection.messages, activity: activity, logger: logger)
                    } catch let error as VarlinkMessageBudgetExceeded {
                        if let heldBack = self.connections.withLock({ $0.logThrottle.admit("budget") }) {
                            let message = "closing the connection: \(error)"
                            logger.notice("\(LogThrottle.message(message, heldBack: heldBack))")
                        }
                    } catch {
                        logger.debug("connection ends: \(error)")
                    }
                    channel.close(promise: nil)
                }
                await withTaskCancellationHandler {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            // The calls ended, the client hung up (or the channel failed), or the server closed it.
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
                } onCancel: {
                    channel.close(promise: nil)
                }
                // Stop whatever call is running (a stream learns it through `onTermination`) and wait for its end.
                calls.cancel()
                await callsEnded.wait()
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
        connection identifier: Int, channel: any Channel, peer: VarlinkPeerCredentials,
        messages: VarlinkConnectionMessages, activity: ConnectionActivity, logger: Logger
    ) async throws {
        for try await frame in inbound {
            // The message counts in the budget until it is answered (or, a stream, ended).
            let messageSize = frame.readableBytes + 1
            defer { messages.answered(messageSize) }
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
            guard startCall(call, on: identifier) else {
                logger.debug("not starting \(call.method): the server is stopping")
                try? await channel.close(mode: .output).get()
                return
            }
            logger.trace("call to \(call.method)")
            try await service.respond(
                to: call, from: peer, on: channel, hangUp: { [channel] in channel.close(promise: nil) }
            ) { reply in
                // The call is over once its last reply is on its way: the client may call again (or a test move
                // its clock on) as soon as it reads it, which must not find the call still running.
                if !reply.continues { activity.callEnded(at: clock.now()) }
                try await outbound.write(.varlinkFrame(reply, allocator: channel.allocator))
            }
            guard finishCall(on: identifier) else {
                // Stopping: the connection closes once the reply is written (the client reads it whole), not before.
                try? await channel.close(mode: .output).get()
                return
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
    /// The bytes of its messages, as the server's budget counts them.
    let messages: VarlinkConnectionMessages
    private let served = Atomic(false)

    init(
        asyncChannel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, channel: any Channel, peer: VarlinkPeerCredentials,
        messages: VarlinkConnectionMessages
    ) {
        self.asyncChannel = asyncChannel
        self.channel = channel
        self.peer = peer
        self.messages = messages
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

    static func make(
        on channel: any Channel, maximumMessageLength: Int, messageBudget: VarlinkMessageBudget,
        replyBacklog: VarlinkReplyBacklog
    ) -> EventLoopFuture<VarlinkConnection> {
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
            let messages = VarlinkConnectionMessages(budget: messageBudget, uid: credentials.uid)
            try channel.pipeline.syncOperations.addHandlers(
                ByteToMessageHandler(
                    VarlinkFrameDecoder(maximumFrameLength: maximumMessageLength, countingIn: messages)),
                VarlinkReplyBacklogCounter(backlog: replyBacklog))
            return VarlinkConnection(
                asyncChannel: try NIOAsyncChannel(wrappingChannelSynchronously: channel),
                channel: channel,
                peer: VarlinkPeerCredentials(
                    uid: credentials.uid, gid: credentials.gid, pid: credentials.pid,
                    groups: groups ?? VarlinkPeerCredentials.groups(ofProcess: credentials.pid)),
                messages: messages)
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

/// A connection as a graceful stop sees it: who is on the other end, the call it runs, and the latch its serving
/// task waits at for its calls' end.
struct ServedConnection: Sendable {
    let channel: any Channel
    let peer: VarlinkPeerCredentials
    /// Opened when the connection's calls have ended, or when the drain's bound passed and they are left behind.
    let callsEnded: Latch
    /// The call running; `nil` between calls.
    var call: RunningCall?

    /// The call and its caller, as the log names them.
    var callDescription: String {
        guard let call else { return "no call (\(peer))" }
        return "\(call.method) (\(peer)\(call.replied ? ", its reply unread" : ""))"
    }
}

/// A call that a connection runs.
struct RunningCall: Sendable {
    /// The fully qualified method.
    let method: String
    /// Whether it was called with `more`: a stream, which a graceful stop ends at once.
    let more: Bool
    /// Whether it has replied (during a graceful stop, the connection closes once the reply is written).
    var replied = false
}

/// Opens once and stays open; ``wait()`` returns once it is open.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Opens the latch, letting every waiter go on.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.isOpen else { return [] }
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
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

    /// Marks the running call ended at `reading`; nothing when none runs (its last reply already ended it).
    func callEnded(at reading: Duration) {
        state.withLock {
            guard $0.running else { return }
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

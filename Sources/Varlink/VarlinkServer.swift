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
/// running call's task is cancelled, so a streaming handler learns it through `onTermination`.
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

    /// The address the server was bound to.
    public let address: Address
    private let service: VarlinkService
    private let serverChannel: NIOAsyncChannel<VarlinkConnection, Never>
    private let limits: ConnectionLimits
    private let connections = Mutex(ConnectionCount())
    private let logger: Logger

    /// The connections being served, in all and per user, and whether a refusal was logged since the last
    /// time there was room.
    private struct ConnectionCount {
        var total = 0
        var perUser: [uid_t: Int] = [:]
        var refusalLogged = false
    }

    private init(
        address: Address, service: VarlinkService, serverChannel: NIOAsyncChannel<VarlinkConnection, Never>,
        limits: ConnectionLimits, logger: Logger
    ) {
        self.address = address
        self.service = service
        self.serverChannel = serverChannel
        self.limits = limits
        self.logger = logger
    }

    /// Binds a listening socket for `service`; call ``run()`` to accept connections.
    ///
    /// - Parameters:
    ///   - socketGroup: the group given to a socket file when that group exists (`nil`: leave it).
    ///   - maximumMessageLength: the longest message accepted; longer ones close the connection.
    ///   - limits: how many connections are served at once.
    public static func bind(
        to address: Address, service: VarlinkService, socketGroup: String? = nil,
        maximumMessageLength: Int = VarlinkFrameDecoder.defaultMaximumFrameLength,
        limits: ConnectionLimits = ConnectionLimits(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "varlink.server")
    ) async throws -> VarlinkServer {
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: backlog)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<VarlinkConnection> = { channel in
            VarlinkConnection.make(on: channel, maximumMessageLength: maximumMessageLength)
        }
        let serverChannel: NIOAsyncChannel<VarlinkConnection, Never>
        switch address {
        case .unixSocket(let path):
            try UnixSocketFile.prepare(path: path)
            serverChannel = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
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
        return VarlinkServer(
            address: address, service: service, serverChannel: serverChannel, limits: limits, logger: logger)
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

    /// Counts a new connection of `uid` in, or says there is no room for it (logging that once).
    private func admit(_ uid: uid_t) -> Bool {
        let (admitted, logRefusal) = connections.withLock { count -> (Bool, Bool) in
            guard count.total < limits.total, count.perUser[uid, default: 0] < limits.perUser else {
                defer { count.refusalLogged = true }
                return (false, !count.refusalLogged)
            }
            count.total += 1
            count.perUser[uid, default: 0] += 1
            return (true, false)
        }
        if logRefusal {
            logger.warning(
                "refusing connections: \(limits.total) in all or \(limits.perUser) of one user (uid \(uid)) are open")
        }
        return admitted
    }

    /// Counts a finished connection of `uid` out.
    private func release(_ uid: uid_t) {
        connections.withLock { count in
            count.total -= 1
            count.perUser[uid, default: 1] -= 1
            if count.perUser[uid] == 0 { count.perUser[uid] = nil }
            count.refusalLogged = false
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
        do {
            try await connection.asyncChannel.executeThenClose { inbound, outbound in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            try await self.answerCalls(
                                from: inbound, to: outbound, channel: channel, peer: peer, logger: logger)
                        } catch {
                            logger.debug("connection ends: \(error)")
                        }
                        channel.close(promise: nil)
                    }
                    group.addTask {
                        // The client hung up (or the channel failed): stop whatever call is running.
                        try? await channel.closeFuture.get()
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("closing the connection failed: \(error)")
        }
    }

    private func answerCalls(
        from inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        channel: any Channel, peer: VarlinkPeerCredentials, logger: Logger
    ) async throws {
        for try await frame in inbound {
            let call: VarlinkCall
            do {
                call = try VarlinkCall(frame: frame.readableBytesView)
            } catch {
                logger.notice("closing the connection: \(error)")
                return
            }
            try await service.respond(to: call, from: peer, hangUp: { [channel] in channel.close(promise: nil) }) {
                reply in
                let message = reply.messageBytes
                var buffer = channel.allocator.buffer(capacity: message.count + 1)
                buffer.writeBytes(message)
                buffer.writeInteger(UInt8(0))
                try await outbound.write(buffer)
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

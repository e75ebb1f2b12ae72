import NIOCore
import Synchronization

/// The bytes of replies a server has written to its connections that their sockets have not yet taken: replies
/// waiting for clients that read slowly, or not at all.
///
/// A reply is written whole to its connection's buffer, and stays there until the client reads it. A pack's export
/// is megabytes, so a few hundred connections asking for one and never reading would hold gigabytes. A handler about
/// to make such a reply first waits for room (``VarlinkRequest/waitForRoomToReply()``): while the backlog is at or
/// over its bound, large replies wait for the clients to read, and small ones (the game's) go on as ever. A client
/// that never reads is closed by the idle timeout, which gives its backlog back.
public final class VarlinkReplyBacklog: Sendable {
    /// The backlog at which large replies wait (32 MiB): room for a few of the largest exports.
    public static let defaultBound = 32 << 20

    private struct Waiter {
        let connection: ObjectIdentifier
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var pending = 0
        /// The connection whose large reply is being made: one at a time, so that many calls waiting for room do not
        /// all find it at once and make their replies together.
        var maker: ObjectIdentifier?
        var nextWaiter = 0
        /// In the order they came.
        var waiters: [(identifier: Int, waiter: Waiter)] = []

        /// Lets the first waiter make its reply when the backlog is under `bound` and nobody else makes one.
        mutating func next(bound: Int) -> CheckedContinuation<Void, any Error>? {
            guard maker == nil, pending < bound, !waiters.isEmpty else { return nil }
            let first = waiters.removeFirst().waiter
            maker = first.connection
            return first.continuation
        }
    }

    /// The backlog at which ``waitForRoom(on:)`` waits.
    public let bound: Int
    private let state = Mutex(State())
    /// Runs once a large reply was taken whole by its socket (or dropped with its connection).
    let largeReplySent: @Sendable () -> Void

    /// Creates an empty backlog bounded at `bound` bytes; `largeReplySent` runs, on the connection's event loop,
    /// each time a large reply has been made and its socket has taken it whole, or its connection closed (a daemon
    /// gives back the memory its making freed).
    public init(bound: Int = defaultBound, largeReplySent: @escaping @Sendable () -> Void = {}) {
        self.bound = bound
        self.largeReplySent = largeReplySent
    }

    /// The bytes written and not yet taken by their sockets.
    public var pending: Int { state.withLock { $0.pending } }

    /// How many handlers wait for room.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// `bytes` were written to `connection`; returns whether they are its large reply, which is then made.
    func add(_ bytes: Int, on connection: ObjectIdentifier) -> Bool {
        let (made, next) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            state.pending += bytes
            guard state.maker == connection else { return (false, nil) }
            state.maker = nil
            return (true, state.next(bound: bound))
        }
        next?.resume()
        return made
    }

    /// `bytes` were taken by their socket (or dropped with their connection).
    func remove(_ bytes: Int) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.pending -= bytes
            return state.next(bound: bound)
        }
        next?.resume()
    }

    /// `connection` closed: a large reply it was making is given up.
    func closed(_ connection: ObjectIdentifier) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.maker == connection else { return nil }
            state.maker = nil
            return state.next(bound: bound)
        }
        next?.resume()
    }

    /// Returns once the backlog is under its bound and no other large reply is being made; the call on `connection`
    /// then makes its reply, and the next waiter goes on once that reply is written to it. Throws `CancellationError`
    /// when the task is cancelled first (its client hung up).
    func waitForRoom(on connection: ObjectIdentifier) async throws {
        let identifier = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (cancelled, next) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
                    // Cancelled before it waits: the cancellation handler found nothing to resume.
                    if Task.isCancelled { return (true, nil) }
                    state.waiters.append((identifier, Waiter(connection: connection, continuation: continuation)))
                    return (false, state.next(bound: bound))
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                next?.resume()
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.identifier == identifier }) else { return nil }
                return state.waiters.remove(at: index).waiter.continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }
}

/// Counts the bytes written to one connection in its server's ``VarlinkReplyBacklog`` until its socket takes them
/// (or the connection closes).
final class VarlinkReplyBacklogCounter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let backlog: VarlinkReplyBacklog

    init(backlog: VarlinkReplyBacklog) {
        self.backlog = backlog
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let size = unwrapOutboundIn(data).readableBytes
        let large = backlog.add(size, on: ObjectIdentifier(context.channel))
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { [backlog] _ in
            backlog.remove(size)
            if large { backlog.largeReplySent() }
        }
        context.write(data, promise: written)
    }

    func channelInactive(context: ChannelHandlerContext) {
        backlog.closed(ObjectIdentifier(context.channel))
        context.fireChannelInactive()
    }
}

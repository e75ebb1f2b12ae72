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

    private struct State {
        var pending = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    /// The backlog at which ``waitForRoom()`` waits.
    public let bound: Int
    private let state = Mutex(State())

    /// Creates an empty backlog bounded at `bound` bytes.
    public init(bound: Int = defaultBound) {
        self.bound = bound
    }

    /// The bytes written and not yet taken by their sockets.
    public var pending: Int { state.withLock { $0.pending } }

    /// How many handlers wait for room.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    func add(_ bytes: Int) {
        state.withLock { $0.pending += bytes }
    }

    func remove(_ bytes: Int) {
        let waking = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.pending -= bytes
            guard state.pending < bound else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waking { waiter.resume() }
    }

    /// Returns once the backlog is under its bound; throws `CancellationError` when the task is cancelled first (its
    /// client hung up).
    public func waitForRoom() async throws {
        let identifier = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.pending < bound { return .success(()) }
                    state.waiters[identifier] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume(throwing: CancellationError())
        }
    }
}

/// Counts the bytes written to one connection in its server's ``VarlinkReplyBacklog`` until its socket takes them
/// (or the connection closes).
final class VarlinkReplyBacklogCounter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let backlog: VarlinkReplyBacklog

    init(backlog: VarlinkReplyBacklog) {
        self.backlog = backlog
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let size = unwrapOutboundIn(data).readableBytes
        backlog.add(size)
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { [backlog] _ in backlog.remove(size) }
        context.write(data, promise: written)
    }
}

import NIOCore
import Synchronization

/// The same replies for many `more` calls at once (a game's watchers), each reply encoded once.
///
/// ```swift
/// let broadcast = VarlinkBroadcast(backlogLimit: 256)
/// // In a streaming method's handler: the call's first reply, then every reply sent after it.
/// return broadcast.subscribe(VarlinkRequest.current, first: state)
/// // Wherever something happens, from one serial context:
/// broadcast.send(event)
/// ```
///
/// A call that came on a ``VarlinkServer``'s connection gets its replies written straight to that connection, with
/// no task in between: ``send(_:)`` frames a reply once and hands it to each event loop that serves subscribers in
/// one `execute`, which writes and flushes it on each of that loop's connections. The stream such a call's handler
/// returns carries no replies; it ends when the subscriber is dropped, and the call with it. An in-process call
/// (``VarlinkService/handle(_:from:hangUp:send:)``) gets its replies through that stream, and
/// ``add(first:sink:onLeave:)`` adds a listener that is handed each reply as it is sent. (Debug builds check the
/// replies of in-process calls against the interface, as every other reply; those written to connections are not
/// checked.)
///
/// - Order: a subscriber gets its first reply, then every reply sent after it joined, in the order of the
///   ``send(_:)`` calls (make them, and the subscribing, from one serial context).
/// - Backlog: a subscriber with `backlogLimit` replies not yet written to its socket (not yet read from its stream,
///   in-process) is dropped when one more comes: its call ends with ``Overflow``, which closes the connection (no
///   error reply can get past the replies the client does not read), and the connection is closed at once.
/// - Leaving: when the client hangs up, the server cancels the call, its stream ends and the subscriber leaves.
///   Each subscriber's `onLeave` is called once, with the reason.
public final class VarlinkBroadcast: Sendable {
    /// Takes one reply for a listener; returns `false` when the listener cannot take it (it is then dropped).
    public typealias Sink = @Sendable (VarlinkStreamReply) -> Bool

    /// Why a subscriber left.
    public enum Departure: Sendable, Equatable {
        /// Its call ended: the client hung up, or the server stopped serving it.
        case hungUp
        /// It fell `backlogLimit` replies behind (or its sink refused a reply) and was dropped.
        case fellBehind
    }

    /// How the call of a subscriber that fell too far behind ends.
    public struct Overflow: Error, Sendable, CustomStringConvertible {
        /// How many replies were waiting.
        public var backlogLimit: Int

        /// Creates the error.
        public init(backlogLimit: Int) {
            self.backlogLimit = backlogLimit
        }

        public var description: String { "the client fell \(backlogLimit) replies behind" }
    }

    /// How many replies a subscriber may have unwritten (or unread) before it is dropped.
    public let backlogLimit: Int
    private let members = Mutex(Members())

    /// Every subscriber; those on connections also by their event loop.
    private struct Members {
        var nextID = 0
        /// Every subscriber: what to call when it leaves, and where it is.
        var all: [Int: Member] = [:]
        /// Subscribers on connections, by the identity of their channel's event loop.
        var loops: [ObjectIdentifier: LoopSubscribers] = [:]
        /// Subscribers handed each reply by a closure: in-process calls and listeners.
        var sinks: [Int: Sink] = [:]

        /// The next subscriber id.
        mutating func takeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    private struct Member {
        let onLeave: @Sendable (Departure) -> Void
        /// The identity of its connection's event loop; `nil` for a sink.
        let loop: ObjectIdentifier?
    }

    /// The subscribers whose connections one event loop serves.
    private struct LoopSubscribers: Sendable {
        let loop: any EventLoop
        var connections: [Int: ConnectionSubscriber] = [:]
    }

    /// Creates a broadcast with no subscribers.
    ///
    /// - Parameter backlogLimit: how many replies a subscriber may have unwritten (unread, in-process) before it is
    ///   dropped; at least 1.
    public init(backlogLimit: Int) {
        self.backlogLimit = max(backlogLimit, 1)
    }

    /// How many subscribers there are.
    public var count: Int { members.withLock { $0.all.count } }

    /// Subscribes `request`, a call made with `more` (``VarlinkRequest/current`` in its handler; `nil` for a caller
    /// in this process), and returns the stream its handler returns: `first`, then every reply sent from now on.
    ///
    /// A call on a server's connection is written to directly, and its stream carries no replies: it ends with
    /// ``Overflow`` when the subscriber falls too far behind. A call without `more` gets `first` as its only reply,
    /// and a `oneway` call nothing; neither subscribes.
    ///
    /// - Parameter onLeave: called once when the subscriber leaves, with the reason.
    public func subscribe(
        _ request: VarlinkRequest?, first: VarlinkEncodedParameters,
        onLeave: @escaping @Sendable (Departure) -> Void = { _ in }
    ) -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        if let call = request?.call, call.oneway || !call.more {
            let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream()
            if !call.oneway { continuation.yield(VarlinkStreamReply(encodedParameters: first, continues: false)) }
            continuation.finish()
            return stream
        }
        guard let channel = request?.channel else { return subscribeInProcess(first: first, onLeave: onLeave) }
        let (stream, call) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream()
        let subscriber = ConnectionSubscriber(channel: channel, call: call, backlogLimit: backlogLimit)
        let loop = ObjectIdentifier(channel.eventLoop)
        let id = members.withLock { $0.takeID() }
        call.onTermination = { [self] ending in leave(id, Departure(ending)) }
        let frame = Self.frame(first)
        members.withLock { members in
            members.all[id] = Member(onLeave: onLeave, loop: loop)
            members.loops[loop, default: LoopSubscribers(loop: channel.eventLoop)].connections[id] = subscriber
            // Queued before the subscriber can be sent anything else, so every later reply comes after it.
            channel.eventLoop.execute { subscriber.send(frame) }
        }
        return stream
    }

    /// Adds a listener in this process: `sink` is handed `first` (when given), then every reply sent from now on,
    /// on the thread that sends it; a sink that returns `false` is dropped. Returns whether it was added.
    @discardableResult
    public func add(
        first: VarlinkEncodedParameters? = nil, sink: @escaping Sink,
        onLeave: @escaping @Sendable (Departure) -> Void = { _ in }
    ) -> Bool {
        if let first, !sink(VarlinkStreamReply(encodedParameters: first, continues: true)) { return false }
        members.withLock { members in
            let id = members.takeID()
            members.all[id] = Member(onLeave: onLeave, loop: nil)
            members.sinks[id] = sink
        }
        return true
    }

    /// Sends `parameters` as the next reply to every subscriber, dropping those that fell too far behind.
    ///
    /// Sinks are handed the reply first, on this thread, then each event loop gets it.
    public func send(_ parameters: VarlinkEncodedParameters) {
        let (loops, sinks) = members.withLock { (Array($0.loops.values), $0.sinks) }
        if !sinks.isEmpty {
            let reply = VarlinkStreamReply(encodedParameters: parameters, continues: true)
            var refused: [Int] = []
            for (id, sink) in sinks where !sink(reply) { refused.append(id) }
            for id in refused { leave(id, .fellBehind) }
        }
        guard !loops.isEmpty else { return }
        let frame = Self.frame(parameters)
        for subscribers in loops {
            subscribers.loop.execute {
                for subscriber in subscribers.connections.values { subscriber.send(frame) }
            }
        }
    }

    /// An in-process call's subscription: its replies go through its stream, at most `backlogLimit` unread.
    private func subscribeInProcess(
        first: VarlinkEncodedParameters, onLeave: @escaping @Sendable (Departure) -> Void
    ) -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        let (stream, call) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(backlogLimit))
        let backlogLimit = backlogLimit
        let sink: Sink = { reply in
            switch call.yield(reply) {
            case .enqueued:
                return true
            case .dropped:
                call.finish(throwing: Overflow(backlogLimit: backlogLimit))
                return false
            case .terminated:
                // The caller hung up: the stream's end removes it.
                return true
            @unknown default:
                return false
            }
        }
        _ = sink(VarlinkStreamReply(encodedParameters: first, continues: true))
        let id = members.withLock { $0.takeID() }
        call.onTermination = { [self] ending in leave(id, Departure(ending)) }
        members.withLock { members in
            members.all[id] = Member(onLeave: onLeave, loop: nil)
            members.sinks[id] = sink
        }
        return stream
    }

    /// Removes subscriber `id` and tells its `onLeave` why; a subscriber that already left is not told again.
    private func leave(_ id: Int, _ departure: Departure) {
        let member = members.withLock { members -> Member? in
            guard let member = members.all.removeValue(forKey: id) else { return nil }
            if let loop = member.loop {
                members.loops[loop]?.connections[id] = nil
                if members.loops[loop]?.connections.isEmpty == true { members.loops[loop] = nil }
            } else {
                members.sinks[id] = nil
            }
            return member
        }
        member?.onLeave(departure)
    }

    /// A reply as it goes on the wire: the message, continued, and its terminating NUL.
    private static func frame(_ parameters: VarlinkEncodedParameters) -> ByteBuffer {
        .varlinkFrame(VarlinkEncodedReply(parameters: parameters, continues: true), allocator: ByteBufferAllocator())
    }
}

extension VarlinkBroadcast.Departure {
    /// Why the subscriber whose call's stream ended with `ending` left.
    fileprivate init(_ ending: AsyncThrowingStream<VarlinkStreamReply, any Error>.Continuation.Termination) {
        if case .finished(let error?) = ending, error is VarlinkBroadcast.Overflow {
            self = .fellBehind
        } else {
            self = .hungUp
        }
    }
}

/// A subscriber on a connection: its replies are written on the connection's event loop and counted until they are
/// written to the socket.
private final class ConnectionSubscriber: Sendable {
    private let channel: any Channel
    /// The subscriber's call, ended with ``VarlinkBroadcast/Overflow`` when it falls too far behind.
    private let call: AsyncThrowingStream<VarlinkStreamReply, any Error>.Continuation
    private let backlogLimit: Int
    private let backlog: NIOLoopBoundBox<Backlog>

    private struct Backlog: Sendable {
        /// Replies handed to the channel and not yet written to its socket.
        var unwritten = 0
        /// Dropped: nothing more is written.
        var dropped = false
    }

    init(
        channel: any Channel, call: AsyncThrowingStream<VarlinkStreamReply, any Error>.Continuation, backlogLimit: Int
    ) {
        self.channel = channel
        self.call = call
        self.backlogLimit = backlogLimit
        backlog = .makeBoxSendingValue(Backlog(), eventLoop: channel.eventLoop)
    }

    /// On the channel's event loop: writes and flushes `frame`, or drops the subscriber when `backlogLimit` replies
    /// are still unwritten.
    func send(_ frame: ByteBuffer) {
        enum Step { case write, drop, skip }
        let step = backlog.withValue { backlog -> Step in
            if backlog.dropped { return .skip }
            if backlog.unwritten >= backlogLimit {
                backlog.dropped = true
                return .drop
            }
            backlog.unwritten += 1
            return .write
        }
        switch step {
        case .write:
            let written = channel.eventLoop.makePromise(of: Void.self)
            let backlog = backlog
            written.futureResult.whenComplete { _ in backlog.value.unwritten -= 1 }
            channel.writeAndFlush(frame, promise: written)
        case .drop:
            call.finish(throwing: VarlinkBroadcast.Overflow(backlogLimit: backlogLimit))
            channel.close(promise: nil)
        case .skip:
            break
        }
    }
}

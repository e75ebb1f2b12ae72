import NIOCore
import NIOPosix

/// A Varlink client on one Unix-socket connection.
///
/// Calls may be made concurrently: they are pipelined on the connection and each gets its own replies,
/// because a Varlink server answers in call order. Abandoning a ``callMore(_:parameters:)`` stream
/// before its final reply closes the connection (Varlink cannot cancel a call), which tells the server
/// the watcher is gone.
public final class VarlinkClient: Sendable {
    /// The socket path this client is connected to.
    public let path: String
    /// How long ``call(_:parameters:)`` waits for its reply before it closes the connection and throws
    /// ``VarlinkError/noReply(timeout:)``; `nil` waits as long as it takes.
    public let replyTimeout: Duration?
    private let channel: any Channel
    private let handler: NIOLoopBound<VarlinkClientHandler>

    private init(
        path: String, replyTimeout: Duration?, channel: any Channel, handler: NIOLoopBound<VarlinkClientHandler>
    ) {
        self.path = path
        self.replyTimeout = replyTimeout
        self.channel = channel
        self.handler = handler
    }

    /// Connects to the Varlink service listening at `path`.
    ///
    /// A socket that systemd holds for a service accepts the connection whether or not its service starts: with
    /// `replyTimeout`, a call gives up after that long instead of waiting for ever.
    ///
    /// Throws ``VarlinkError/connectionFailed(path:underlying:)`` when nothing answers there.
    public static func connect(
        unixSocketPath path: String,
        maximumMessageLength: Int = VarlinkFrameDecoder.defaultMaximumFrameLength,
        replyTimeout: Duration? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(VarlinkError) -> VarlinkClient {
        do {
            let (channel, handler) = try await ClientBootstrap(group: eventLoopGroup).connect(
                unixDomainSocketPath: path
            ) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = VarlinkClientHandler(eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(VarlinkFrameDecoder(maximumFrameLength: maximumMessageLength)), handler)
                    return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                }
            }
            return VarlinkClient(path: path, replyTimeout: replyTimeout, channel: channel, handler: handler)
        } catch {
            throw .connectionFailed(path: path, underlying: error)
        }
    }

    /// Whether the connection is still open (the server closes one that stays idle too long).
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection; pending calls fail with ``VarlinkError/connectionClosed``.
    public func close() async {
        try? await channel.close()
    }

    /// Calls `method` (fully qualified) and returns the reply's parameters.
    ///
    /// Throws ``VarlinkError/remote(name:parameters:)`` for an error reply, ``VarlinkError/noReply(timeout:)``
    /// when none came within ``replyTimeout``.
    public func call(_ method: String, parameters: VarlinkObject = [:]) async throws(VarlinkError) -> VarlinkObject {
        let call = VarlinkCall(method: method, parameters: parameters)
        let handler = handler
        let timeout = replyTimeout
        let reply: VarlinkReply
        do {
            reply = try await withCheckedThrowingContinuation { continuation in
                handler.eventLoop.execute {
                    let number = handler.value.send(call, expecting: .single(continuation)).number
                    guard let timeout, number >= 0 else { return }
                    let expiry = handler.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                        handler.value.giveUp(onCall: number, after: timeout)
                    }
                    handler.value.watch(call: number, expiry: expiry)
                }
            }
        } catch let error as VarlinkError {
            throw error
        } catch {
            throw .protocolViolation("\(error)")
        }
        if let name = reply.error { throw .remote(name: name, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Calls `method` with `more` and returns its replies as they come; the stream ends after the final one.
    ///
    /// An error reply ends the stream by throwing ``VarlinkError/remote(name:parameters:)``. Stopping the
    /// iteration early closes the connection.
    public func callMore(
        _ method: String, parameters: VarlinkObject = [:]
    ) -> AsyncThrowingStream<VarlinkObject, any Error> {
        let call = VarlinkCall(method: method, parameters: parameters, more: true)
        let (stream, continuation) = AsyncThrowingStream<VarlinkObject, any Error>.makeStream()
        let channel = channel
        continuation.onTermination = { termination in
            if case .cancelled = termination { channel.close(promise: nil) }
        }
        let handler = handler
        handler.eventLoop.execute {
            handler.value.send(call, expecting: .stream(continuation))
        }
        return stream
    }

    /// Calls `method` with `oneway`: the service sends no reply, not even an error.
    ///
    /// Returns once the call is written.
    public func oneway(_ method: String, parameters: VarlinkObject = [:]) async throws(VarlinkError) {
        let call = VarlinkCall(method: method, parameters: parameters, oneway: true)
        let handler = handler
        let written = handler.eventLoop.flatSubmit {
            handler.value.send(call, expecting: nil).written
        }
        do {
            try await written.get()
        } catch {
            throw .connectionClosed
        }
    }
}

extension VarlinkClient {
    /// Calls `method` with `Encodable` parameters and decodes the reply as `Reply` (``JSONValueDecoder/forReplies``:
    /// an optional enum field with a value `Reply` does not list is `nil`).
    public func call<Request: Encodable, Reply: Decodable>(
        _ method: String, _ request: Request, as reply: Reply.Type = Reply.self
    ) async throws -> Reply {
        let parameters = try VarlinkMethodResult.object(encoding: request)
        return try JSONValueDecoder.forReplies.decode(
            Reply.self, from: .object(try await call(method, parameters: parameters)))
    }

    /// Calls `method` with `more` and `Encodable` parameters, decoding each reply as `Reply` as ``call(_:_:as:)``
    /// does; a reply that does not decode ends the stream with its error.
    public func callMore<Request: Encodable, Reply: Decodable & Sendable>(
        _ method: String, _ request: Request, as reply: Reply.Type = Reply.self
    ) throws -> AsyncThrowingStream<Reply, any Error> {
        let replies = callMore(method, parameters: try VarlinkMethodResult.object(encoding: request))
        let (stream, continuation) = AsyncThrowingStream<Reply, any Error>.makeStream()
        let task = Task {
            do {
                for try await parameters in replies {
                    continuation.yield(try JSONValueDecoder.forReplies.decode(Reply.self, from: .object(parameters)))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// The client's end of the pipeline: writes calls and routes each reply to the oldest waiting call.
final class VarlinkClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Who waits for the replies of one call.
    enum Waiter {
        case single(CheckedContinuation<VarlinkReply, any Error>)
        case stream(AsyncThrowingStream<VarlinkObject, any Error>.Continuation)

        func fail(_ error: VarlinkError) {
            switch self {
            case .single(let continuation): continuation.resume(throwing: error)
            case .stream(let continuation): continuation.finish(throwing: error)
            }
        }
    }

    private let eventLoop: any EventLoop
    private var waiters = CircularBuffer<Waiter>()
    /// How many calls with a waiter were sent, and how many of them are over (answered or failed): the call numbered
    /// `n` (from 0) waits while `finishedCalls <= n`.
    private var sentCalls = 0
    private var finishedCalls = 0
    /// The reply timeouts of calls still waiting, by call number; cancelled as each call ends.
    private var expiries: [Int: Scheduled<Void>] = [:]
    private var context: ChannelHandlerContext?
    private var closedError: VarlinkError?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        failAll(.connectionClosed)
    }

    /// Writes `call`; `waiter` (none for `oneway`) gets its replies. Returns the write, and the call's number (for
    /// ``giveUp(onCall:after:)``). Must run on the event loop.
    @discardableResult
    func send(_ call: VarlinkCall, expecting waiter: Waiter?) -> (written: EventLoopFuture<Void>, number: Int) {
        guard let context, closedError == nil else {
            let error = closedError ?? .connectionClosed
            waiter?.fail(error)
            return (eventLoop.makeFailedFuture(error), -1)
        }
        let number = sentCalls
        if let waiter {
            waiters.append(waiter)
            sentCalls += 1
        }
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeVarlinkMessage(call.jsonValue)
        return (context.writeAndFlush(wrapOutboundOut(buffer)), number)
    }

    /// Closes the connection when call `number` still waits for its reply (Varlink cannot cancel one call): it, and
    /// every call behind it, fail with ``VarlinkError/noReply(timeout:)``. Must run on the event loop.
    func giveUp(onCall number: Int, after timeout: Duration) {
        expiries[number] = nil
        guard number >= finishedCalls, let context else { return }
        breakConnection(context: context, .noReply(timeout: timeout))
    }

    /// Keeps `expiry`, the reply timeout of call `number`, to cancel it when the call ends. Must run on the event loop.
    func watch(call number: Int, expiry: Scheduled<Void>) {
        if number >= finishedCalls { expiries[number] = expiry } else { expiry.cancel() }
    }

    /// The oldest waiting call is over (answered or failed): its timeout goes.
    private func finishOldestCall() {
        expiries.removeValue(forKey: finishedCalls)?.cancel()
        finishedCalls += 1
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let reply: VarlinkReply
        do {
            reply = try VarlinkReply(frame: frame.readableBytesView)
        } catch {
            return breakConnection(context: context, .protocolViolation(error.reason))
        }
        guard let waiter = waiters.first else {
            return breakConnection(context: context, .protocolViolation("a reply came for no call"))
        }
        switch waiter {
        case .single(let continuation):
            waiters.removeFirst()
            finishOldestCall()
            guard !reply.continues else {
                continuation.resume(throwing: VarlinkError.protocolViolation("\"continues\" on a call without more"))
                return breakConnection(context: context, .protocolViolation("\"continues\" on a call without more"))
            }
            continuation.resume(returning: reply)
        case .stream(let continuation):
            if let name = reply.error {
                waiters.removeFirst()
                finishOldestCall()
                continuation.finish(throwing: VarlinkError.remote(name: name, parameters: reply.parameters))
            } else {
                continuation.yield(reply.parameters)
                if !reply.continues {
                    waiters.removeFirst()
                    finishOldestCall()
                    continuation.finish()
                }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A server that went away with the call unread (a daemon stopping) closed the connection: no protocol broke.
        if let error = error as? IOError, error.errnoCode == ECONNRESET || error.errnoCode == EPIPE {
            return breakConnection(context: context, .connectionClosed)
        }
        breakConnection(context: context, .protocolViolation("\(error)"))
    }

    private func breakConnection(context: ChannelHandlerContext, _ error: VarlinkError) {
        if closedError == nil { closedError = error }
        // Closed before the callers hear why: one that goes on at once finds the connection closed.
        context.close(promise: nil)
        failAll(error)
    }

    /// Fails every waiting call with the first reason the connection ended for.
    private func failAll(_ error: VarlinkError) {
        if closedError == nil { closedError = error }
        let reason = closedError ?? error
        while let waiter = waiters.popFirst() {
            finishOldestCall()
            waiter.fail(reason)
        }
    }
}

import ShakyDaemon
import ShakyProtocol
import TriviaEngine
import Varlink

/// What a test body holds in ``TestDaemon/run(_:stateDirectory:accessPolicy:peer:soundPlayer:_:)``: calls and
/// watches that work the same in both modes, plus the daemon itself, its clock and its sound player.
///
/// Every reply and every error reply is checked against the interface description it claims to follow; one
/// that does not match throws ``ReplyBreaksInterface``, so any test catches a reply the IDL does not allow.
///
/// It is a `VarlinkCallTransport`, so the generated typed clients run over it in both modes:
/// ```swift
/// let state = try await ShakyAPI.GameInterface.Client(client).next()
/// ```
/// The untyped calls (``call(_:_:)``, ``callError(_:_:)``) are for what a typed client cannot send: wrong
/// parameters, unknown methods, hostile input.
public final class TestDaemonClient: Sendable {
    /// How calls reach the daemon.
    public let mode: TestDaemon.Mode
    /// The daemon (its `runtime`, `database`, `service`…).
    public let daemon: Daemon
    /// The daemon's clock: advance it to run timers.
    public let clock: ManualClock
    /// The player the daemon's cues and sound settings go to.
    public let soundPlayer: RecordingSoundPlayer
    /// Who in-process calls come from.
    public let peer: VarlinkPeerCredentials
    /// The socket path (served only in ``TestDaemon/Mode/socket`` mode).
    public let socketPath: String
    private let connection: VarlinkClient?

    init(
        mode: TestDaemon.Mode, daemon: Daemon, clock: ManualClock, soundPlayer: RecordingSoundPlayer,
        peer: VarlinkPeerCredentials, socketPath: String, connection: VarlinkClient?
    ) {
        self.mode = mode
        self.daemon = daemon
        self.clock = clock
        self.soundPlayer = soundPlayer
        self.peer = peer
        self.socketPath = socketPath
        self.connection = connection
    }

    /// The Varlink address of the socket, as the python client spells it (`unix:PATH`).
    public var address: String { "unix:" + socketPath }

    /// A reply or error reply that the interface description does not allow.
    public struct ReplyBreaksInterface: Error, CustomStringConvertible {
        /// The method called.
        public var method: String
        /// What is wrong.
        public var problem: String
        public var description: String { "the reply to \(method) breaks its interface: \(problem)" }
    }

    /// A countdown runs, yet the runtime set no timer on the clock within 10 s of real time.
    public struct ClockDidNotSettle: Error, CustomStringConvertible {
        /// The game as it stood.
        public var status: GameStatus
        public var description: String { "a countdown runs but the runtime set no timer: \(status)" }
    }

    // MARK: Calls

    /// Calls `method` (fully qualified) and returns the reply's parameters.
    ///
    /// Throws ``VarlinkError/remote(name:parameters:)`` for an error reply, in both modes.
    @discardableResult
    public func call(_ method: String, _ parameters: VarlinkObject = [:]) async throws -> VarlinkObject {
        let reply: VarlinkObject
        do {
            reply = try await rawCall(method, parameters)
        } catch VarlinkError.remote(let name, let errorParameters) {
            try checkError(name, errorParameters, of: method)
            throw VarlinkError.remote(name: name, parameters: errorParameters)
        }
        try checkReply(reply, of: method)
        return reply
    }

    /// Calls `method` with `Encodable` parameters and decodes the reply as `Reply`.
    public func call<Request: Encodable, Reply: Decodable>(
        _ method: String, _ request: Request, as reply: Reply.Type = Reply.self
    ) async throws -> Reply {
        guard case .object(let parameters) = try JSONValue(encoding: request) else {
            throw ReplyBreaksInterface(method: method, problem: "the request does not encode as an object")
        }
        return try JSONValue.object(try await call(method, parameters)).decode(as: Reply.self)
    }

    /// Calls `method` and decodes the reply as `Reply`.
    public func call<Reply: Decodable>(
        _ method: String, _ parameters: VarlinkObject = [:], as reply: Reply.Type
    ) async throws -> Reply {
        try JSONValue.object(try await call(method, parameters)).decode(as: Reply.self)
    }

    /// Calls `method`, expecting an error reply: returns its name and parameters; throws when the call succeeds.
    public func callError(
        _ method: String, _ parameters: VarlinkObject = [:]
    ) async throws -> (name: String, parameters: VarlinkObject) {
        let reply: VarlinkObject
        do {
            reply = try await call(method, parameters)
        } catch VarlinkError.remote(let name, let errorParameters) {
            return (name, errorParameters)
        }
        throw ReplyBreaksInterface(
            method: method, problem: "expected an error reply, got \(JSONValue.object(reply).serialized)")
    }

    /// The generated client of `io.shakywords.Game` over this client.
    public var gameClient: ShakyAPI.GameInterface.Client<TestDaemonClient> { .init(self) }

    /// `io.shakywords.Game.Status`, decoded.
    public func status() async throws -> ShakyAPI.State {
        try await gameClient.status()
    }

    /// Calls a Game method that answers with the game's state (`Next`, `Buzz`, `Hint`…), decoded.
    @discardableResult
    public func game(_ member: String, _ parameters: VarlinkObject = [:]) async throws -> ShakyAPI.State {
        try await call("io.shakywords.Game." + member, parameters, as: ShakyAPI.GameInterface.StatusReply.self).status
    }

    /// Calls `io.shakywords.Game.Watch` with `more` and returns its replies as they come.
    ///
    /// Over the socket the watch has a connection of its own (a stream holds up later calls on its connection),
    /// as a real watcher would. Read the first reply (the state) before changing the game, so the watcher is
    /// known to be registered; ``WatchStream/cancel()`` hangs up.
    /// `ticks` is `Watch`'s parameter (`nil` leaves it out: a tick each second).
    public func watch(ticks: Bool? = nil) async throws -> WatchStream<VarlinkObject> {
        let (replies, hangUp) = try await stream("io.shakywords.Game.Watch", ticks.map { ["ticks": .bool($0)] } ?? [:])
        return await WatchStream.reading(replies, hangUp: hangUp)
    }

    /// Calls `method` with `more`: its replies, each checked against the interface, and how to hang up.
    private func stream(
        _ method: String, _ parameters: VarlinkObject
    ) async throws -> (replies: AsyncThrowingStream<VarlinkObject, any Error>, hangUp: @Sendable () -> Void) {
        let replies: AsyncThrowingStream<VarlinkObject, any Error>
        let hangUp: @Sendable () -> Void
        switch mode {
        case .inProcess:
            let (stream, continuation) = AsyncThrowingStream<VarlinkObject, any Error>.makeStream()
            let service = daemon.service
            let peer = peer
            let task = Task {
                do {
                    let call = VarlinkCall(method: method, parameters: parameters, more: true)
                    try await service.handle(call, from: peer) { reply in
                        if let name = reply.error {
                            continuation.finish(throwing: VarlinkError.remote(name: name, parameters: reply.parameters))
                        } else {
                            continuation.yield(reply.parameters)
                            if !reply.continues { continuation.finish() }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            replies = stream
            hangUp = { task.cancel() }
        case .socket:
            let watcher = try await VarlinkClient.connect(unixSocketPath: socketPath)
            replies = watcher.callMore(method, parameters: parameters)
            hangUp = { Task { await watcher.close() } }
        }
        let checked = AsyncThrowingStream<VarlinkObject, any Error> { continuation in
            let task = Task {
                do {
                    for try await reply in replies {
                        try self.checkReply(reply, of: method)
                        continuation.yield(reply)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                task.cancel()
                hangUp()
            }
        }
        return (checked, hangUp)
    }

    /// A client of the same daemon whose calls come in-process from `peer` (to test access rules with
    /// credentials the test could not have over a real socket).
    public func calling(as peer: VarlinkPeerCredentials) -> TestDaemonClient {
        TestDaemonClient(
            mode: .inProcess, daemon: daemon, clock: clock, soundPlayer: soundPlayer, peer: peer,
            socketPath: socketPath, connection: nil)
    }

    /// Opens another connection to the socket (socket mode only).
    public func connect() async throws -> VarlinkClient {
        try await VarlinkClient.connect(unixSocketPath: socketPath)
    }

    // MARK: Time

    /// Moves the manual clock forward, then waits until the runtime has handled every wake-up that fell due.
    ///
    /// Settled means: the runtime sleeps on the clock again, or no countdown runs. Waiting is bounded (10 s of
    /// real time); a runtime that never re-arms its timer while a countdown runs fails the wait.
    public func advance(by duration: Duration) async throws {
        clock.advance(by: duration)
        try await settle()
    }

    /// Waits until the runtime has handled every wake-up that is due (see ``advance(by:)``).
    public func settle() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if clock.sleeperCount > 0 { return }
            guard let status = try? await daemon.runtime.status() else { return }
            let running = status.phase.hasTimer && !status.isPaused
            if !running { return }
            guard ContinuousClock.now < deadline else { throw ClockDidNotSettle(status: status) }
            await Task.yield()
        }
    }

    // MARK: Plumbing

    private func rawCall(_ method: String, _ parameters: VarlinkObject) async throws -> VarlinkObject {
        if let connection { return try await connection.call(method, parameters: parameters) }
        var replies: [VarlinkReply] = []
        do {
            try await daemon.service.handle(VarlinkCall(method: method, parameters: parameters), from: peer) {
                replies.append($0)
            }
        } catch {
            // Over the socket the connection would close without a reply.
            throw VarlinkError.connectionClosed
        }
        guard replies.count == 1, let reply = replies.first else {
            throw ReplyBreaksInterface(method: method, problem: "\(replies.count) replies to a plain call")
        }
        if let name = reply.error { throw VarlinkError.remote(name: name, parameters: reply.parameters) }
        guard !reply.continues else {
            throw ReplyBreaksInterface(method: method, problem: "\"continues\" on a call without more")
        }
        return reply.parameters
    }

    private func definition(of interfaceName: String) -> VarlinkInterfaceDefinition? {
        daemon.service.interfaces.first { $0.name == interfaceName }?.definition
    }

    private func checkReply(_ reply: VarlinkObject, of method: String) throws {
        let call = VarlinkCall(method: method)
        guard let definition = definition(of: call.interfaceName),
            let signature = definition.methods[call.memberName]
        else {
            throw ReplyBreaksInterface(method: method, problem: "a reply came for an undeclared method")
        }
        if let path = definition.firstInvalidParameter(in: reply, against: signature.output) {
            throw ReplyBreaksInterface(
                method: method, problem: "\"\(path)\" in \(JSONValue.object(reply).serialized)")
        }
    }

    private func checkError(_ name: String, _ parameters: VarlinkObject, of method: String) throws {
        let error = VarlinkCall(method: name)
        guard let definition = definition(of: error.interfaceName),
            let fields = definition.errors[error.memberName]
        else {
            throw ReplyBreaksInterface(method: method, problem: "error \(name) is declared by no interface")
        }
        if let path = definition.firstInvalidParameter(in: parameters, against: fields) {
            throw ReplyBreaksInterface(
                method: method, problem: "error \(name): \"\(path)\" in \(JSONValue.object(parameters).serialized)")
        }
    }
}

extension TestDaemonClient: VarlinkCallTransport {
    public typealias Failure = any Error

    /// Calls `method` with `parameters` (in either mode, the reply checked against the interface) and decodes the
    /// reply as `replyType`.
    public func call<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws -> Reply {
        try await call(method, parameters, as: replyType)
    }

    /// Calls `method` with `more`; the stream yields each reply (checked against the interface) decoded as
    /// `replyType`. Stopping the iteration hangs up.
    public func callMore<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws -> AsyncThrowingStream<Reply, any Error> {
        guard case .object(let encoded) = try JSONValue(encoding: parameters) else {
            throw ReplyBreaksInterface(method: method, problem: "the request does not encode as an object")
        }
        let (replies, _) = try await stream(method, encoded)
        return AsyncThrowingStream<Reply, any Error> { continuation in
            let task = Task {
                do {
                    for try await reply in replies {
                        continuation.yield(try JSONValue.object(reply).decode(as: Reply.self))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

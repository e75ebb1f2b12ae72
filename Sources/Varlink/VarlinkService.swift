import Logging
import NIOCore

/// A Varlink service: `org.varlink.service` plus the registered interfaces, and the dispatch of calls.
///
/// ``handle(_:from:send:)`` is the whole protocol logic of a call, without sockets: the server calls
/// it for each message in order, and tests can call it in-process.
public struct VarlinkService: Sendable {
    /// The vendor `GetInfo` reports.
    public var vendor: String
    /// The product `GetInfo` reports.
    public var product: String
    /// The version `GetInfo` reports.
    public var version: String
    /// The URL `GetInfo` reports.
    public var url: String
    /// Decides, per call, whether the peer may call a method; `org.varlink.service` is always allowed.
    public var accessPolicy: any VarlinkAccessPolicy
    /// Where unexpected handler errors are logged.
    public var logger: Logger
    /// Whether debug builds check every reply, and every error of the called interface, against the interface
    /// description before sending it, stopping the process on a mismatch (a handler's bug). On by default; only
    /// a test server that must send broken replies turns it off. Release builds never check.
    public var checksReplies = true
    /// The interfaces in `GetInfo` order, `org.varlink.service` first.
    public private(set) var interfaces: [VarlinkInterface] = []
    private var interfacesByName: [String: VarlinkInterface] = [:]

    /// Creates a service serving `interfaces` besides `org.varlink.service`.
    ///
    /// Throws when two interfaces share a name.
    public init(
        vendor: String, product: String, version: String, url: String, interfaces: [VarlinkInterface],
        accessPolicy: any VarlinkAccessPolicy = AllowEveryoneAccessPolicy(),
        logger: Logger = Logger(label: "varlink")
    ) throws {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        self.accessPolicy = accessPolicy
        self.logger = logger
        let service = try VarlinkInterface(description: VarlinkInterface.orgVarlinkServiceDescription, methods: [:])
        for interface in [service] + interfaces {
            guard interfacesByName[interface.name] == nil else {
                throw VarlinkIDLError(line: 0, reason: "interface \(interface.name) is registered twice")
            }
            self.interfaces.append(interface)
            interfacesByName[interface.name] = interface
        }
    }

    /// Handles one call: `send` receives each reply in order (none for a `oneway` call), its parameters parsed
    /// back into a tree: for in-process callers. A server sends the encoded replies of
    /// ``respond(to:from:hangUp:send:)``.
    ///
    /// Returns when the call is complete: after its only reply, its error, or the final reply of a
    /// stream. Throws when the connection must close: `send` failed, a handler threw an error that is
    /// not ``VarlinkErrorConvertible``, or a stream ended without a final reply. Cancelling the calling
    /// task (the client hung up) stops a stream and runs its `onTermination`.
    public func handle(
        _ call: VarlinkCall, from peer: VarlinkPeerCredentials, hangUp: @escaping @Sendable () -> Void = {},
        send: (VarlinkReply) async throws -> Void
    ) async throws {
        try await respond(to: call, from: peer, hangUp: hangUp) { reply in try await send(try VarlinkReply(reply)) }
    }

    /// Handles one call as ``handle(_:from:hangUp:send:)`` does, handing `send` each reply encoded once, ready to
    /// be written.
    ///
    /// In debug builds every reply and every error of the called interface is checked against the interface
    /// description, and one that does not match it stops the process with the offending path.
    public func respond(
        to call: VarlinkCall, from peer: VarlinkPeerCredentials, hangUp: @escaping @Sendable () -> Void = {},
        send: (VarlinkEncodedReply) async throws -> Void
    ) async throws {
        try await respond(to: call, from: peer, on: nil, hangUp: hangUp, send: send)
    }

    /// Handles one call that came on `channel` (`nil`: in-process), as ``respond(to:from:hangUp:send:)`` does.
    func respond(
        to call: VarlinkCall, from peer: VarlinkPeerCredentials, on channel: (any Channel)?,
        hangUp: @escaping @Sendable () -> Void, send: (VarlinkEncodedReply) async throws -> Void
    ) async throws {
        // A reply that cannot be written means the client hung up (or the connection was closed): not the call's
        // failure, and nothing to log above debug.
        func write(_ reply: VarlinkEncodedReply) async throws {
            do {
                try await send(reply)
            } catch {
                throw ReplyNotWritten(underlying: error)
            }
        }
        do {
            let result = try await result(for: call, from: peer, on: channel, hangUp: hangUp)
            guard !call.oneway else { return }
            switch result {
            case .reply(let parameters):
                try await write(checked(VarlinkEncodedReply(parameters: VarlinkEncodedParameters(parameters)), call))
            case .encodedReply(let parameters):
                try await write(checked(VarlinkEncodedReply(parameters: parameters), call))
            case .stream(let stream):
                for try await element in stream {
                    let continues = call.more && element.continues
                    try await write(
                        checked(VarlinkEncodedReply(parameters: element.encodedParameters, continues: continues), call))
                    if !continues { return }
                }
                try Task.checkCancellation()
                throw VarlinkProtocolViolation("the stream of \(call.method) ended without a final reply")
            }
        } catch let error as any VarlinkErrorConvertible {
            guard !call.oneway else { return }
            let reply = error.varlinkReplyError
            try await send(
                checked(
                    VarlinkEncodedReply(parameters: VarlinkEncodedParameters(reply.parameters), error: reply.name), call
                ))
        } catch is CancellationError {
            throw CancellationError()
        } catch let overflow as VarlinkBroadcast.Overflow {
            // A client too slow for its stream, not a failed call: the broadcast's owner hears of it (a departure
            // `fellBehind`) and says it in its own words, once.
            throw overflow
        } catch let notWritten as ReplyNotWritten {
            logger.debug(
                "\(call.method): the reply could not be written (\(notWritten.underlying)); the client is gone",
                metadata: ["peer": "\(peer)"])
            throw notWritten.underlying
        } catch {
            if !Task.isCancelled {
                logger.error("\(call.method) failed: \(error); closing the connection", metadata: ["peer": "\(peer)"])
            }
            throw error
        }
    }

    /// `reply`, after checking it against the interface in debug builds (the check is compiled out of release
    /// builds).
    private func checked(_ reply: VarlinkEncodedReply, _ call: VarlinkCall) -> VarlinkEncodedReply {
        assert(!checksReplies || stopOnMismatch(reply, call))
        return reply
    }

    /// `true` when `reply` matches the interface; otherwise stops the process, naming the mismatch.
    private func stopOnMismatch(_ reply: VarlinkEncodedReply, _ call: VarlinkCall) -> Bool {
        guard let mismatch = interfaceMismatch(of: reply, to: call) else { return true }
        assertionFailure(mismatch)
        return false
    }

    /// What in `reply` does not have the fields and types the interface declares for `call`'s method (or, for
    /// an error of the interface, for that error), or `nil` when it matches. An error must be one the interface
    /// declares or one of `org.varlink.service`'s, which answer any interface's calls (and are not checked here):
    /// a client reads another interface's error as one it was never told of.
    func interfaceMismatch(of reply: VarlinkEncodedReply, to call: VarlinkCall) -> String? {
        guard let interface = interfacesByName[call.interfaceName] else { return nil }
        let fields: [VarlinkField]
        if let error = reply.error {
            if error.hasPrefix("org.varlink.service.") { return nil }
            let prefix = interface.name + "."
            guard error.hasPrefix(prefix),
                let declared = interface.definition.errors[String(error.dropFirst(prefix.count))]
            else { return "\(error) is not an error of \(interface.name), which \(call.method) belongs to" }
            fields = declared
        } else {
            guard let signature = interface.definition.methods[call.memberName] else { return nil }
            fields = signature.output
        }
        let what = reply.error ?? "the reply of \(call.method)"
        let parameters: VarlinkObject
        do {
            parameters = try reply.parameters.object()
        } catch {
            return "\(what) is not a JSON object: \(error)"
        }
        guard let path = interface.definition.firstInvalidParameter(in: parameters, against: fields) else {
            return nil
        }
        return "\(what) does not match the interface at \"\(path)\": \(JSONValue.object(parameters).serialized)"
    }

    /// Checks the call against the interface and access policy, then runs its handler.
    private func result(
        for call: VarlinkCall, from peer: VarlinkPeerCredentials, on channel: (any Channel)?,
        hangUp: @escaping @Sendable () -> Void
    ) async throws -> VarlinkMethodResult {
        guard let interface = interfacesByName[call.interfaceName] else {
            throw VarlinkReplyError.interfaceNotFound(call.interfaceName)
        }
        guard let signature = interface.definition.methods[call.memberName] else {
            throw VarlinkReplyError.methodNotFound(call.method)
        }
        let isServiceInterface = interface.name == "org.varlink.service"
        guard isServiceInterface || accessPolicy.allows(peer, toCall: call.method) else {
            throw VarlinkReplyError.permissionDenied
        }
        guard !call.upgrade else { throw VarlinkReplyError.invalidParameter("upgrade") }
        let method = isServiceInterface ? serviceMethod(call.memberName) : interface.methods[call.memberName]
        guard let method else { throw VarlinkReplyError.methodNotImplemented(call.method) }
        guard call.more || !method.requiresMore else { throw VarlinkReplyError.expectedMore }
        if let invalid = interface.definition.firstInvalidParameter(in: call.parameters, against: signature.input) {
            throw VarlinkReplyError.invalidParameter(invalid)
        }
        let request = VarlinkRequest(call: call, peer: peer, channel: channel, hangUp: hangUp)
        return try await VarlinkRequest.$current.withValue(request) { try await method.handler(request) }
    }

    private func serviceMethod(_ name: String) -> VarlinkMethod? {
        switch name {
        case "GetInfo":
            .reply { _ in
                [
                    "vendor": .string(vendor), "product": .string(product), "version": .string(version),
                    "url": .string(url), "interfaces": .array(interfaces.map { .string($0.name) }),
                ]
            }
        case "GetInterfaceDescription":
            .reply { request in
                let name = request.parameters["interface"]?.stringValue ?? ""
                guard let interface = interfacesByName[name] else { throw VarlinkReplyError.interfaceNotFound(name) }
                return ["description": .string(interface.description)]
            }
        default:
            nil
        }
    }
}

/// Writing a reply failed: the connection is gone.
private struct ReplyNotWritten: Error {
    let underlying: any Error
}

import Foundation
import NIOCore
import NIOPosix
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Who is on the other end of a connection, from the kernel (`SO_PEERCRED`) at connect time.
public struct VarlinkPeerCredentials: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The peer's effective user id.
    public var uid: uid_t
    /// The peer's effective group id.
    public var gid: gid_t
    /// The peer's process id.
    public var pid: pid_t
    /// The peer's supplementary groups, as the kernel holds them for its process (not as the user database
    /// lists them for its user).
    public var groups: [gid_t]

    /// Creates credentials.
    public init(uid: uid_t, gid: gid_t, pid: pid_t, groups: [gid_t] = []) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.groups = groups
    }

    /// The credentials of this process, for in-process calls.
    public static var currentProcess: Self {
        // Without the list (which getgroups cannot fail to give this process), the primary group still counts.
        let count = (try? checkSyscall("getgroups") { getgroups(0, nil) }) ?? 0
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = (try? checkSyscall("getgroups") { getgroups(count, &groups) }) ?? 0
        return Self(uid: geteuid(), gid: getegid(), pid: getpid(), groups: Array(groups.prefix(Int(filled))))
    }

    /// The supplementary groups of process `pid` from the `Groups:` line of `/proc/PID/status`, or none
    /// when it cannot be read: the fallback when the socket cannot say.
    public static func groups(ofProcess pid: pid_t) -> [gid_t] {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Groups:") })
        else { return [] }
        return line.dropFirst("Groups:".count).split(whereSeparator: \.isWhitespace).compactMap { gid_t($0) }
    }

    public var description: String { "uid \(uid) gid \(gid) pid \(pid)" }
}

/// One call as a method handler sees it: already checked against the interface description.
public struct VarlinkRequest: Sendable {
    /// The call, with its flags.
    public var call: VarlinkCall
    /// Who made the call.
    public var peer: VarlinkPeerCredentials
    /// Closes the caller's connection at once, even while a reply is waiting for a client that does not read
    /// (for a stream whose reader fell too far behind). Does nothing for in-process calls.
    public var hangUp: @Sendable () -> Void
    /// The connection the call came on (`nil` for in-process calls), which a ``VarlinkBroadcast`` writes its replies
    /// to.
    let channel: (any Channel)?

    /// Creates a request.
    public init(call: VarlinkCall, peer: VarlinkPeerCredentials, hangUp: @escaping @Sendable () -> Void = {}) {
        self.init(call: call, peer: peer, channel: nil, hangUp: hangUp)
    }

    /// Creates a request that came on `channel`.
    init(
        call: VarlinkCall, peer: VarlinkPeerCredentials, channel: (any Channel)?,
        hangUp: @escaping @Sendable () -> Void
    ) {
        self.call = call
        self.peer = peer
        self.channel = channel
        self.hangUp = hangUp
    }

    /// The request whose handler is running on this task, for handlers that need the caller (a generated
    /// interface's requirements get only the parameters).
    @TaskLocal public static var current: VarlinkRequest?

    /// Waits until the server's backlog of replies its clients have not read is under its bound and no other large
    /// reply is being made (``VarlinkReplyBacklog``), for a handler about to make a large reply (megabytes: a pack's
    /// export), which must then reply (or fail, or lose its connection) before another goes on, so not for a oneway
    /// call; at once for an in-process call. Throws `CancellationError` when the caller hangs up first.
    public func waitForRoomToReply() async throws {
        guard let channel else { return }
        let backlog = try? await channel.pipeline.handler(type: VarlinkReplyBacklogCounter.self).map(\.backlog).get()
        try await backlog?.waitForRoom(on: ObjectIdentifier(channel))
    }

    /// The call's parameters; every key is declared and every value has its declared type.
    public var parameters: VarlinkObject { call.parameters }

    /// The call's parameters decoded as `type`.
    ///
    /// The parameters are decoded straight from the parsed call (``JSONValueDecoder``). Throws
    /// `InvalidParameter` when decoding fails, which can happen only when the Swift type is stricter than the
    /// interface description (say, a range check in `init(from:)`).
    public func decodeParameters<Parameters: Decodable>(
        as type: Parameters.Type = Parameters.self
    ) throws(VarlinkReplyError) -> Parameters {
        do {
            return try JSONValueDecoder().decode(type, from: .object(parameters))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidParameter((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.dataCorrupted(context)
        {
            throw .invalidParameter(context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch let error as VarlinkUnknownEnumValue {
            throw .invalidParameter(error.codingPath.joined(separator: "."))
        } catch {
            throw .invalidParameter("")
        }
    }
}

/// The parameters of a reply as JSON text (always an object), encoded once and then sent as they are, to one
/// caller or to many.
public struct VarlinkEncodedParameters: Sendable, Equatable, Hashable {
    /// The object's compact JSON text, UTF-8.
    public let bytes: [UInt8]

    /// The text of `object`, keys in ascending order.
    public init(_ object: VarlinkObject) {
        var writer = JSONWriter()
        object.writeJSON(to: &writer)
        self.init(bytes: writer.bytes)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Encodes `parameters` once: a ``JSONWritable`` value (every generated wire type) straight to bytes, any
    /// other `Encodable` value through `JSONEncoder`. Throws when the value does not encode as a JSON object.
    public init(encoding parameters: some Encodable) throws {
        guard let writable = parameters as? any JSONWritable else {
            self.init(try VarlinkMethodResult.object(encoding: parameters))
            return
        }
        var writer = JSONWriter()
        writable.writeJSON(to: &writer)
        guard writer.bytes.first == UInt8(ascii: "{") else {
            throw VarlinkProtocolViolation("reply parameters must encode as a JSON object")
        }
        self.init(bytes: writer.bytes)
    }

    /// The parameters parsed back into a tree, for in-process callers and checks.
    public func object() throws(VarlinkProtocolViolation) -> VarlinkObject {
        try parseVarlinkMessage(bytes, kind: "reply parameters")
    }
}

/// One reply in a stream: its parameters, encoded once, and whether more replies follow.
public struct VarlinkStreamReply: Sendable, Equatable {
    /// The reply's parameters as JSON text.
    public var encodedParameters: VarlinkEncodedParameters
    /// More replies follow; the last reply of a stream has `false`.
    public var continues: Bool

    /// Creates a stream reply from parameters already encoded.
    public init(encodedParameters: VarlinkEncodedParameters, continues: Bool) {
        self.encodedParameters = encodedParameters
        self.continues = continues
    }

    /// Creates a stream reply, encoding `parameters`.
    public init(parameters: VarlinkObject, continues: Bool) {
        self.init(encodedParameters: VarlinkEncodedParameters(parameters), continues: continues)
    }

    /// Creates a stream reply from an `Encodable` value that encodes as a JSON object (see
    /// ``VarlinkEncodedParameters/init(encoding:)``).
    public init(encoding parameters: some Encodable, continues: Bool) throws {
        self.init(encodedParameters: try VarlinkEncodedParameters(encoding: parameters), continues: continues)
    }

    /// The reply's parameters parsed back into a tree (empty if they do not parse, which encoded parameters
    /// always do).
    public var parameters: VarlinkObject {
        (try? encodedParameters.object()) ?? [:]
    }
}

/// What a method handler answers.
public enum VarlinkMethodResult: Sendable {
    /// One reply.
    case reply(VarlinkObject)
    /// One reply whose parameters are already encoded.
    case encodedReply(VarlinkEncodedParameters)
    /// Replies as they come, for calls made with `more`.
    ///
    /// Each element is sent at once; the element with `continues: false` ends the call. Throwing a
    /// ``VarlinkErrorConvertible`` ends the call with that error reply; throwing anything else, or
    /// finishing without a final element, closes the connection. When the client hangs up, the server
    /// stops iterating, so the stream's `onTermination` runs with `.cancelled`: that is where a handler
    /// drops its watcher. The stream of a ``VarlinkBroadcast`` subscriber on a connection carries no replies (they
    /// are written to the connection directly): the call lasts until it ends.
    case stream(AsyncThrowingStream<VarlinkStreamReply, any Error>)

    /// One reply made from an `Encodable` value that encodes as a JSON object, encoded once (see
    /// ``VarlinkEncodedParameters/init(encoding:)``).
    public static func reply(encoding parameters: some Encodable) throws -> Self {
        .encodedReply(try VarlinkEncodedParameters(encoding: parameters))
    }

    static func object(encoding parameters: some Encodable) throws -> VarlinkObject {
        guard case .object(let object) = try JSONValue(encoding: parameters) else {
            throw VarlinkProtocolViolation("reply parameters must encode as a JSON object")
        }
        return object
    }
}

/// A method's implementation.
public struct VarlinkMethod: Sendable {
    /// The method only streams: a call without `more` gets `ExpectedMore` before the handler runs.
    public var requiresMore: Bool
    /// The handler; it runs on the connection's task, one call at a time per connection.
    public var handler: @Sendable (VarlinkRequest) async throws -> VarlinkMethodResult

    /// Creates a method from a handler that may reply once or stream.
    public init(
        requiresMore: Bool = false,
        handler: @escaping @Sendable (VarlinkRequest) async throws -> VarlinkMethodResult
    ) {
        self.requiresMore = requiresMore
        self.handler = handler
    }

    /// A method that replies once with an object.
    public static func reply(
        _ handler: @escaping @Sendable (VarlinkRequest) async throws -> VarlinkObject
    ) -> VarlinkMethod {
        VarlinkMethod { request in .reply(try await handler(request)) }
    }

    /// A method that takes and returns `Codable` values, for a typed handler.
    ///
    /// With `largeReply` (a reply that can be megabytes: a pack's export), the handler runs once there is room in
    /// the server's backlog of unread replies (``VarlinkRequest/waitForRoomToReply()``), and its reply is encoded on
    /// NIO's blocking pool: escaping megabytes of text where the call runs would hold back every other connection
    /// served there (a team's buzz among them) for a good part of a second.
    public static func typed<Parameters: Decodable & Sendable, Reply: Encodable & Sendable>(
        _ parameters: Parameters.Type = Parameters.self, largeReply: Bool = false,
        _ handler: @escaping @Sendable (Parameters, VarlinkRequest) async throws -> Reply
    ) -> VarlinkMethod {
        VarlinkMethod { request in
            let parameters = try request.decodeParameters(as: Parameters.self)
            // A oneway call gets no reply: nothing to wait for, and no reply would let the next large one go on.
            guard largeReply, !request.call.oneway else {
                return try .reply(encoding: try await handler(parameters, request))
            }
            try await request.waitForRoomToReply()
            let reply = try await handler(parameters, request)
            return .encodedReply(
                try await NIOThreadPool.singleton.runIfActive { try VarlinkEncodedParameters(encoding: reply) })
        }
    }

    /// A method that only streams (`ExpectedMore` without `more`).
    public static func stream(
        _ handler:
            @escaping @Sendable (VarlinkRequest) async throws -> AsyncThrowingStream<
                VarlinkStreamReply, any Error
            >
    ) -> VarlinkMethod {
        VarlinkMethod(requiresMore: true) { request in .stream(try await handler(request)) }
    }
}

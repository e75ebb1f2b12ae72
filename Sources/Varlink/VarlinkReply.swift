/// A reply as it travels from server to client: parameters, or an error, and whether more follow.
///
/// Wire form: `{"parameters":{…},"continues":true}` or `{"error":"iface.ErrorName","parameters":{…}}`.
public struct VarlinkReply: Sendable, Equatable {
    /// The reply's parameters, or the error's parameters.
    public var parameters: VarlinkObject
    /// More replies to the same call follow (only for calls made with `more`).
    public var continues: Bool
    /// The fully qualified error name when the call failed.
    public var error: String?

    /// Creates a reply with parameters.
    public init(parameters: VarlinkObject = [:], continues: Bool = false) {
        self.parameters = parameters
        self.continues = continues
        self.error = nil
    }

    /// Creates an error reply.
    public static func error(_ name: String, parameters: VarlinkObject = [:]) -> VarlinkReply {
        var reply = VarlinkReply(parameters: parameters)
        reply.error = name
        return reply
    }

    /// The reply as a JSON object; `continues` and `error` are written only when set.
    public var jsonValue: JSONValue {
        var members: VarlinkObject = ["parameters": .object(parameters)]
        if continues { members["continues"] = true }
        if let error { members["error"] = .string(error) }
        return .object(members)
    }

    /// Parses one reply frame (without its NUL); keys with a dot and other unknown keys are ignored.
    public init(frame: some Collection<UInt8>) throws(VarlinkProtocolViolation) {
        let members = try parseVarlinkMessage(frame, kind: "a reply")
        switch members["parameters"] {
        case nil, .null?: parameters = [:]
        case .object(let object)?: parameters = object
        case let other?: throw VarlinkProtocolViolation("reply \"parameters\" must be an object, not \(other.typeName)")
        }
        switch members["continues"] {
        case nil: continues = false
        case .bool(let flag)?: continues = flag
        case let other?: throw VarlinkProtocolViolation("reply \"continues\" must be a bool, not \(other.typeName)")
        }
        switch members["error"] {
        case nil, .null?: error = nil
        case .string(let name)?: error = name
        case let other?: throw VarlinkProtocolViolation("reply \"error\" must be a string, not \(other.typeName)")
        }
    }
}

/// A reply as a server writes it: parameters encoded once, the message put around them without parsing them.
public struct VarlinkEncodedReply: Sendable, Equatable {
    /// The reply's parameters, or the error's parameters.
    public var parameters: VarlinkEncodedParameters
    /// More replies to the same call follow.
    public var continues: Bool
    /// The fully qualified error name when the call failed.
    public var error: String?

    /// Creates a reply.
    public init(parameters: VarlinkEncodedParameters, continues: Bool = false, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// The message's JSON text (without its NUL), with the same keys in the same order as
    /// ``VarlinkReply/jsonValue`` writes them.
    public var messageBytes: [UInt8] {
        var writer = JSONWriter(capacity: parameters.bytes.count + 64)
        writer.beginObject()
        if continues { writer.writeMember("continues", true) }
        if let error { writer.writeMember("error", error) }
        writer.writeMember("parameters", rawJSON: parameters.bytes)
        writer.endObject()
        return writer.bytes
    }
}

extension VarlinkReply {
    /// The reply an encoded reply stands for, its parameters parsed back into a tree.
    public init(_ encoded: VarlinkEncodedReply) throws(VarlinkProtocolViolation) {
        self.init(parameters: try encoded.parameters.object(), continues: encoded.continues)
        error = encoded.error
    }
}

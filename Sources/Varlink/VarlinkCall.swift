/// A message that breaks the Varlink protocol; the server closes the connection without a reply.
public struct VarlinkProtocolViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the message.
    public var reason: String

    /// Creates a violation with a reason a person can read.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "Varlink protocol violation: \(reason)" }
}

/// A method call as it travels from client to server.
///
/// Wire form: `{"method":"iface.Method","parameters":{…},"oneway":true,"more":true,"upgrade":true}`.
public struct VarlinkCall: Sendable, Equatable {
    /// The fully qualified method name, `interface.Method`.
    public var method: String
    /// The call's parameters (absent on the wire means empty).
    public var parameters: VarlinkObject
    /// The client wants no reply at all.
    public var oneway: Bool
    /// The client accepts several replies (`continues: true` on all but the last).
    public var more: Bool
    /// The client asks to switch to another protocol after the reply.
    public var upgrade: Bool

    /// Creates a call.
    public init(
        method: String, parameters: VarlinkObject = [:], oneway: Bool = false, more: Bool = false,
        upgrade: Bool = false
    ) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// The interface part of ``method`` (everything before the last dot).
    public var interfaceName: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The member part of ``method`` (everything after the last dot).
    public var memberName: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }
}

extension VarlinkCall {
    /// Parses one frame (without its NUL) strictly.
    ///
    /// Throws ``VarlinkProtocolViolation`` for invalid JSON or UTF-8, a non-object, a missing or
    /// non-string `method`, an unknown header key without a dot (keys with a dot are extensions and
    /// are ignored), a non-Boolean `oneway`, `more` or `upgrade`, `oneway` together with `more` or
    /// `upgrade`, and `parameters` that is neither an object nor `null` (`null` means no parameters, as the
    /// reference implementations accept).
    public init(frame: some Collection<UInt8>) throws(VarlinkProtocolViolation) {
        let members = try parseVarlinkMessage(frame, kind: "a call")
        for key in members.keys
        where !key.utf8.contains(UInt8(ascii: "."))
            && !["method", "parameters", "oneway", "more", "upgrade"].contains(key)
        {
            throw VarlinkProtocolViolation("unknown key \"\(key)\" in a call")
        }
        guard let methodValue = members["method"] else {
            throw VarlinkProtocolViolation("a call has no \"method\"")
        }
        guard case .string(let method) = methodValue else {
            throw VarlinkProtocolViolation("\"method\" must be a string, not \(methodValue.typeName)")
        }
        func flag(_ key: String) throws(VarlinkProtocolViolation) -> Bool {
            switch members[key] {
            case nil: return false
            case .bool(let flag)?: return flag
            case let other?: throw VarlinkProtocolViolation("\"\(key)\" must be a bool, not \(other.typeName)")
            }
        }
        let oneway = try flag("oneway")
        let more = try flag("more")
        let upgrade = try flag("upgrade")
        if oneway && more { throw VarlinkProtocolViolation("\"oneway\" and \"more\" exclude each other") }
        if oneway && upgrade { throw VarlinkProtocolViolation("\"oneway\" and \"upgrade\" exclude each other") }
        let parameters: VarlinkObject
        switch members["parameters"] {
        case nil, .null?: parameters = [:]
        case .object(let object)?: parameters = object
        case let other?: throw VarlinkProtocolViolation("\"parameters\" must be an object, not \(other.typeName)")
        }
        self.init(method: method, parameters: parameters, oneway: oneway, more: more, upgrade: upgrade)
    }

    /// The call as a JSON object, flags written only when set.
    public var jsonValue: JSONValue {
        var members: VarlinkObject = ["method": .string(method), "parameters": .object(parameters)]
        if oneway { members["oneway"] = true }
        if more { members["more"] = true }
        if upgrade { members["upgrade"] = true }
        return .object(members)
    }
}

/// The members of one Varlink message (a call or a reply): the frame must be JSON and an object.
func parseVarlinkMessage(
    _ frame: some Collection<UInt8>, kind: String
) throws(VarlinkProtocolViolation) -> VarlinkObject {
    let value: JSONValue
    do {
        value = try JSONValue(parsing: frame)
    } catch {
        throw VarlinkProtocolViolation(error.description)
    }
    guard case .object(let members) = value else {
        throw VarlinkProtocolViolation("\(kind) must be a JSON object, not \(value.typeName)")
    }
    return members
}

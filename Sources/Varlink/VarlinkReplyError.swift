/// An error that a method handler can throw to answer the call with a Varlink error reply.
///
/// Domain errors conform and describe themselves as a qualified error name with parameters; the
/// service sends that as `{"error": name, "parameters": …}`. Any other error thrown by a handler is
/// logged and closes the connection, because Varlink has no generic error.
public protocol VarlinkErrorConvertible: Error {
    /// The error reply to send.
    var varlinkReplyError: VarlinkReplyError { get }
}

/// A Varlink error reply: a fully qualified error name (`interface.ErrorName`) and its parameters.
public struct VarlinkReplyError: VarlinkErrorConvertible, Equatable, Sendable, CustomStringConvertible {
    /// The fully qualified error name, e.g. `org.varlink.service.InvalidParameter`.
    public var name: String
    /// The error's parameters, as declared in the interface.
    public var parameters: VarlinkObject

    /// Creates an error reply.
    public init(_ name: String, parameters: VarlinkObject = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// Creates an error reply whose parameters are `parameters` encoded as JSON.
    public init(_ name: String, encoding parameters: some Encodable) throws {
        guard case .object(let object) = try JSONValue(encoding: parameters) else {
            throw VarlinkProtocolViolation("the parameters of \(name) do not encode as a JSON object")
        }
        self.init(name, parameters: object)
    }

    /// Creates an error reply whose parameters are `parameters` encoded as JSON, or none if they do not encode
    /// as an object (which a generated parameters struct always does).
    public init(_ name: String, encodingOrEmpty parameters: some Encodable) {
        self.init(name, parameters: (try? VarlinkMethodResult.object(encoding: parameters)) ?? [:])
    }

    /// The parameters decoded as `type` (as a reply's, ``JSONValueDecoder/forReplies``), or `nil` when they do not
    /// match it.
    public func decodeParameters<Parameters: Decodable>(as type: Parameters.Type) -> Parameters? {
        try? JSONValueDecoder.forReplies.decode(type, from: .object(parameters))
    }

    public var varlinkReplyError: VarlinkReplyError { self }

    public var description: String {
        parameters.isEmpty ? name : "\(name) \(JSONValue.object(parameters).serialized)"
    }

    /// `org.varlink.service.InterfaceNotFound`.
    public static func interfaceNotFound(_ interface: String) -> Self {
        Self("org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    /// `org.varlink.service.MethodNotFound`, with the fully qualified method name.
    public static func methodNotFound(_ method: String) -> Self {
        Self("org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.MethodNotImplemented`, with the fully qualified method name.
    public static func methodNotImplemented(_ method: String) -> Self {
        Self("org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.InvalidParameter`, naming the parameter (or its path, such as `team.name`).
    public static func invalidParameter(_ parameter: String) -> Self {
        Self("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    /// `org.varlink.service.PermissionDenied`.
    public static let permissionDenied = Self("org.varlink.service.PermissionDenied")

    /// `org.varlink.service.ExpectedMore`: the method only streams and must be called with `more`.
    public static let expectedMore = Self("org.varlink.service.ExpectedMore")
}

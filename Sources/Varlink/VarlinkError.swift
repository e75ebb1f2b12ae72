/// What can go wrong for a ``VarlinkClient``.
public enum VarlinkError: Error, Sendable, CustomStringConvertible {
    /// The service answered with an error reply: its qualified name and parameters.
    case remote(name: String, parameters: VarlinkObject)
    /// Nothing answers at the socket path (`underlying` says why: missing file, refused, no permission).
    case connectionFailed(path: String, underlying: any Error)
    /// The connection closed before the reply came.
    case connectionClosed
    /// The service sent something that is not Varlink.
    case protocolViolation(String)
    /// No reply came within `timeout` (a service that hangs, or a socket whose service never starts); the connection
    /// was closed, since Varlink cannot cancel a call.
    case noReply(timeout: Duration)

    public var description: String {
        switch self {
        case .remote(let name, let parameters):
            parameters.isEmpty ? name : "\(name) \(JSONValue.object(parameters).serialized)"
        case .connectionFailed(let path, let underlying):
            "cannot connect to \(path): \(underlying)"
        case .connectionClosed:
            "the connection closed before the reply came"
        case .protocolViolation(let reason):
            "the service broke the Varlink protocol: \(reason)"
        case .noReply(let timeout):
            "no reply came within \(timeout.components.seconds) s"
        }
    }

    /// The error name when this is a ``remote(name:parameters:)`` error.
    public var remoteName: String? {
        if case .remote(let name, _) = self { name } else { nil }
    }
}

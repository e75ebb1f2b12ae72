/// A connection a generated typed client makes its calls on.
///
/// ``VarlinkClient`` is one (its errors are ``VarlinkError`` or decoding errors); an application's own client
/// can be another, with its own error type, so the typed client's calls throw that type.
public protocol VarlinkCallTransport: Sendable {
    /// What a call throws.
    associatedtype Failure: Error

    /// Calls `method` (fully qualified) with `parameters` and decodes the reply as `replyType`.
    func call<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws(Failure) -> Reply

    /// Calls `method` with `more`; the stream yields each reply decoded as `replyType` and ends after the last.
    /// Stopping the iteration early ends the call.
    func callMore<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws(Failure) -> AsyncThrowingStream<Reply, any Error>
}

extension VarlinkClient: VarlinkCallTransport {
    public typealias Failure = any Error

    public func call<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws -> Reply {
        try await call(method, parameters, as: replyType)
    }

    public func callMore<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws -> AsyncThrowingStream<Reply, any Error> {
        try callMore(method, parameters, as: replyType)
    }
}

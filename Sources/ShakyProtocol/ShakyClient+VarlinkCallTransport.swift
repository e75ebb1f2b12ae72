import Varlink

extension ShakyClient: VarlinkCallTransport {
    public typealias Failure = ShakyClientError

    /// Calls `method` (fully qualified) with `parameters` and decodes its reply.
    public func call<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws(ShakyClientError) -> Reply {
        let encoded: VarlinkObject
        do {
            guard case .object(let object) = try JSONValue(encoding: parameters) else {
                throw ShakyClientError.protocolError("the parameters of \(method) are not an object")
            }
            encoded = object
        } catch {
            throw error as? ShakyClientError ?? .protocolError("cannot encode the parameters of \(method): \(error)")
        }
        let replyParameters: VarlinkObject
        do {
            replyParameters = try await connection.call(method, parameters: encoded)
        } catch {
            throw ShakyClientError(error, path: socketPath, sent: encoded)
        }
        return try Self.decode(replyParameters, as: Reply.self, from: method)
    }

    /// Calls `method` with `more`: the replies as they come, until the final one.
    ///
    /// The stream runs on a connection of its own (a Varlink connection answers calls in order, so a
    /// call behind a stream would wait for its end); stopping the iteration closes that connection,
    /// which tells the daemon the caller is gone. The stream throws a ``ShakyClientError``: `refused`
    /// when the daemon ends the call with an error, `connectionLost` when it goes away, `protocolError` for a
    /// reply that breaks the interface. A reply with a value this client does not know (a newer daemon's event
    /// kind) is skipped, told to ``reportSkippedReplies(to:)``, and the stream goes on; unless it is one that
    /// ``StreamedReply`` says a client cannot do without (`Watch`'s whole game), which ends the stream with
    /// `newerDaemon`.
    public func callMore<Parameters: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ method: String, parameters: Parameters, replyType: Reply.Type
    ) async throws(ShakyClientError) -> AsyncThrowingStream<Reply, any Error> {
        let path = socketPath
        let encoded: VarlinkObject
        do {
            guard case .object(let object) = try JSONValue(encoding: parameters) else {
                throw ShakyClientError.protocolError("the parameters of \(method) are not an object")
            }
            encoded = object
        } catch {
            throw error as? ShakyClientError ?? .protocolError("cannot encode the parameters of \(method): \(error)")
        }
        let streamConnection: VarlinkClient
        do {
            streamConnection = try await VarlinkClient.connect(unixSocketPath: path)
        } catch {
            throw ShakyClientError(error, path: path)
        }
        let replies = streamConnection.callMore(method, parameters: encoded)
        let (stream, continuation) = AsyncThrowingStream<Reply, any Error>.makeStream()
        let task = Task {
            do {
                for try await parameters in replies {
                    do {
                        continuation.yield(try Self.decode(parameters, as: Reply.self, from: method))
                    } catch ShakyClientError.newerDaemon(let unknown) {
                        guard (Reply.self as? any StreamedReply.Type)?.canBeSkipped(parameters) ?? true else {
                            throw ShakyClientError.newerDaemon(unknown)
                        }
                        self.skipped(unknown)
                    }
                }
                continuation.finish()
            } catch {
                // Stopping the iteration cancels this task before closing the connection, so the error
                // that closing causes is no error for the caller.
                if Task.isCancelled {
                    continuation.finish()
                } else if let error = error as? VarlinkError {
                    continuation.finish(throwing: ShakyClientError(error, path: path, sent: encoded))
                } else {
                    continuation.finish(throwing: error)
                }
            }
            await streamConnection.close()
        }
        continuation.onTermination = { _ in
            task.cancel()
            Task { await streamConnection.close() }
        }
        return stream
    }
}

/// A streamed reply some of which a client cannot skip when it holds a value the client does not know.
protocol StreamedReply {
    /// Whether a client may skip the reply `parameters` and go on with the stream.
    static func canBeSkipped(_ parameters: VarlinkObject) -> Bool
}

extension ShakyAPI.GameInterface.WatchReply: StreamedReply {
    /// Every event but `state`: that one is the whole game (the first reply, and after `New`), which the events after
    /// it change; a client that skipped it would go on showing a game that is not the daemon's.
    static func canBeSkipped(_ parameters: VarlinkObject) -> Bool {
        parameters["event"]?.objectValue?["kind"]?.stringValue != "state"
    }
}

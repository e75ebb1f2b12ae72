extension ShakyClient {
    /// `Game.Watch`: the state now, then every event until the iteration stops.
    ///
    /// The stream runs on a connection of its own (a Varlink connection answers calls in order, so a
    /// call behind a stream would wait for its end); stopping the iteration closes that connection,
    /// which tells the daemon the watcher is gone. The stream throws a ``ShakyClientError``: `refused`
    /// when the daemon ends the watch with an error, `connectionLost` when it goes away.
    public func watch() async throws(ShakyClientError) -> AsyncThrowingStream<ShakyAPI.Event, any Error> {
        let path = socketPath
        let watcher: VarlinkClient
        do {
            watcher = try await VarlinkClient.connect(unixSocketPath: path)
        } catch {
            throw ShakyClientError(error, path: path)
        }
        let method = ShakyAPI.gameInterface + ".Watch"
        let replies = watcher.callMore(method)
        let (stream, continuation) = AsyncThrowingStream<ShakyAPI.Event, any Error>.makeStream()
        let task = Task {
            do {
                for try await parameters in replies {
                    let reply = try Self.decode(parameters, as: ShakyAPI.WatchReply.self, from: method)
                    continuation.yield(reply.event)
                }
                continuation.finish()
            } catch {
                // Stopping the iteration cancels this task before closing the connection, so the error
                // that closing causes is no error for the watcher.
                if Task.isCancelled {
                    continuation.finish()
                } else if let error = error as? VarlinkError {
                    continuation.finish(throwing: ShakyClientError(error, path: path))
                } else {
                    continuation.finish(throwing: error)
                }
            }
            await watcher.close()
        }
        continuation.onTermination = { _ in
            task.cancel()
            Task { await watcher.close() }
        }
        return stream
    }
}

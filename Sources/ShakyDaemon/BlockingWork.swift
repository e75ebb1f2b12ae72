import NIOPosix

/// Work that may block for long (a Varlink service's store call: a pack's import or export, a search, the history,
/// a write, which waits for the disk to sync; a calibration's save), run on NIO's blocking pool rather than where the
/// calling task runs.
///
/// In `shakyd` tasks run on the event loop that serves every connection and carries every watcher's events: a
/// 16 MiB pack imported there would hold back every other client and the board until it is done. The pool's one
/// thread (`NIOSingletons.blockingPoolThreadCountSuggestion`) starts with the first such call and then sleeps until
/// the next.
enum BlockingWork {
    /// Runs `body` on the blocking pool and returns what it returns, or throws what it throws.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// Runs `body` on the blocking pool; what it throws becomes the error `failure` makes of it (a Varlink
    /// interface's reply error, for a service's store call).
    static func run<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws -> T, failingWith failure: (any Error) -> Failure
    ) async throws(Failure) -> T {
        do {
            return try await run(body)
        } catch {
            throw failure(error)
        }
    }
}

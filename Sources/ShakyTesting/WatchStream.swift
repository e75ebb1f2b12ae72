/// The replies of a streaming call (such as `Watch`), read in the background and handed out one at a time, each
/// within a deadline: the one way tests read an event stream, raw (``TestDaemonClient/watch()`` gives
/// `VarlinkObject` replies) or typed (`watchInBackground()` on the generated Game client gives `ShakyAPI.Event`s).
///
/// Replies are buffered as they arrive, so none is lost between two reads. A read that waits longer than its
/// timeout throws ``TimedOut`` instead of hanging the test.
public actor WatchStream<Element: Sendable> {
    /// No reply came within the time allowed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// How long the read waited.
        public var timeout: Duration
        public var description: String { "no reply came within \(timeout)" }
    }

    /// The stream ended (the final reply came, or the connection closed) while a reply was awaited.
    public struct Ended: Error, CustomStringConvertible {
        public var description: String { "the stream ended before the reply came" }
    }

    private struct Waiter {
        var id: Int
        var predicate: @Sendable (Element) -> Bool
        var continuation: CheckedContinuation<Element, any Error>
    }

    private var buffered: [Element] = []
    private var ended = false
    private var endError: (any Error)?
    private var waiter: Waiter?
    private var nextWaiterID = 0
    private var pump: Task<Void, Never>?
    private let hangUp: @Sendable () -> Void

    private init(hangUp: @escaping @Sendable () -> Void) {
        self.hangUp = hangUp
    }

    /// Starts reading `replies`; `hangUp` runs on ``cancel()`` to end the call (close its connection).
    public static func reading(
        _ replies: AsyncThrowingStream<Element, any Error>, hangUp: @escaping @Sendable () -> Void = {}
    ) async -> WatchStream {
        let stream = WatchStream(hangUp: hangUp)
        await stream.start(replies)
        return stream
    }

    private func start(_ replies: AsyncThrowingStream<Element, any Error>) {
        pump = Task { [weak self] in
            do {
                for try await reply in replies { await self?.deliver(reply) }
                await self?.finish(nil)
            } catch {
                await self?.finish(error)
            }
        }
    }

    /// The next reply not read yet that satisfies `predicate`; replies before it are passed over.
    ///
    /// Throws ``TimedOut`` when none comes within `timeout`, ``Ended`` (or the stream's error) when the stream
    /// ends first.
    public func next(
        within timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) async throws -> Element {
        while !buffered.isEmpty {
            let reply = buffered.removeFirst()
            if predicate(reply) { return reply }
        }
        if ended { throw endError ?? Ended() }
        nextWaiterID += 1
        let id = nextWaiterID
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(id, after: timeout)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            waiter = Waiter(id: id, predicate: predicate, continuation: continuation)
        }
    }

    /// How many replies arrived and were not read yet.
    public var unreadCount: Int { buffered.count }

    /// Whether the stream has ended.
    public var hasEnded: Bool { ended }

    /// Hangs up: ends the call and stops reading.
    public func cancel() {
        hangUp()
        pump?.cancel()
        finish(nil)
    }

    private func deliver(_ reply: Element) {
        guard let waiter else {
            buffered.append(reply)
            return
        }
        guard waiter.predicate(reply) else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: reply)
    }

    private func finish(_ error: (any Error)?) {
        guard !ended else { return }
        ended = true
        endError = error
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(throwing: error ?? Ended())
        }
    }

    private func expire(_ id: Int, after timeout: Duration) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(throwing: TimedOut(timeout: timeout))
    }
}

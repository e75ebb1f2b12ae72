import ShakyProtocol
import Varlink

/// The replies of a streaming call (such as `Watch`), read one at a time, each within a deadline.
///
/// Replies are buffered as they arrive, so none is lost between two reads. A read that waits longer than its
/// timeout throws ``WatchStream/TimedOut`` instead of hanging the test.
public actor WatchStream {
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

    private var buffered: [VarlinkObject] = []
    private var ended = false
    private var endError: (any Error)?
    private var waiter: (id: Int, continuation: CheckedContinuation<VarlinkObject, any Error>)?
    private var nextWaiterID = 0
    private var pump: Task<Void, Never>?
    private let hangUp: @Sendable () -> Void

    private init(hangUp: @escaping @Sendable () -> Void) {
        self.hangUp = hangUp
    }

    /// Starts reading `replies`; `hangUp` runs on ``cancel()`` to end the call (close its connection).
    public static func reading(
        _ replies: AsyncThrowingStream<VarlinkObject, any Error>, hangUp: @escaping @Sendable () -> Void
    ) async -> WatchStream {
        let stream = WatchStream(hangUp: hangUp)
        await stream.start(replies)
        return stream
    }

    private func start(_ replies: AsyncThrowingStream<VarlinkObject, any Error>) {
        pump = Task { [weak self] in
            do {
                for try await reply in replies { await self?.deliver(reply) }
                await self?.finish(nil)
            } catch {
                await self?.finish(error)
            }
        }
    }

    /// The next reply's parameters; throws when none comes within `timeout` or the stream ends first.
    public func next(within timeout: Duration = .seconds(10)) async throws -> VarlinkObject {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if ended { throw endError ?? Ended() }
        nextWaiterID += 1
        let id = nextWaiterID
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(id, after: timeout)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            waiter = (id, continuation)
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

    private func deliver(_ reply: VarlinkObject) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: reply)
        } else {
            buffered.append(reply)
        }
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

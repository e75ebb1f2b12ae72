import ShakyCore
import Synchronization

/// Holds the session of a started source; the one place start and stop meet.
final class ReaderSessionSlot: Sendable {
    private let current = Mutex<ReaderSession?>(nil)

    /// Stops the previous session (if any), then launches a new one.
    func start(
        name: String, keeping makeFilter: @escaping @Sendable () -> SampleFilter,
        body: @escaping @Sendable (ReaderSession) throws -> Void
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        stop()
        let (session, stream) = try ReaderSession.launch(name: name, keeping: makeFilter, body: body)
        let previous = current.withLock { slot in
            defer { slot = session }
            return slot
        }
        previous?.stop()
        return stream
    }

    /// Stops the previous session, sets the device up with `open` (its errors reach the caller, on the caller's
    /// thread), then reads it on a new thread, which owns the reading from then on.
    func start(
        name: String, keeping makeFilter: @escaping @Sendable () -> SampleFilter = { { _ in .kept } },
        opening open: () throws -> any AccelerometerReading
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        stop()
        let handOver = HandOver(try open())
        return try start(name: name, keeping: makeFilter) { session in try handOver.take().run(session) }
    }

    /// Stops the current session and waits until its thread has freed the device.
    func stop() {
        let session = current.withLock { slot in
            defer { slot = nil }
            return slot
        }
        session?.stop()
    }
}

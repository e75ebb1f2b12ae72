import Dispatch
import Foundation
import ShakyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a wait on a device descriptor ended with.
enum ReaderWait {
    /// The descriptor has data (or an error or hang-up to read).
    case readable
    /// ``ReaderSession/requestStop()`` was called.
    case stopped
    /// The timeout passed.
    case timedOut
}

/// One run of a source's reader thread: where samples go, and how the thread is told to stop.
///
/// The thread owns the device handles while it runs; it frees them (disabling the buffer, closing the
/// node) when its body returns, before ``waitUntilFinished()`` returns. It also owns the session's filter
/// (the shake detector) and its pacing: only a sample the filter keeps crosses into Swift concurrency.
final class ReaderSession: Sendable {
    /// The samples' way out.
    let continuation: AsyncThrowingStream<AccelSample, any Error>.Continuation
    private let wakeup: WakeupPipe
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Set and used only by the reader thread, from the start of its body to its end.
    private nonisolated(unsafe) var filter: SampleFilter = { _ in .kept }
    /// Used only by the reader thread.
    private nonisolated(unsafe) var pacing = ReadPacing()

    private init(continuation: AsyncThrowingStream<AccelSample, any Error>.Continuation, wakeup: WakeupPipe) {
        self.continuation = continuation
        self.wakeup = wakeup
    }

    /// Starts `body` on a new thread named `name` and returns the session and its stream.
    ///
    /// The name shows in `top -H`, `ps -L` and `/proc` when it fits the kernel's 15 bytes; a longer one leaves the
    /// thread with its creator's name.
    ///
    /// The thread first makes its filter with `makeFilter`; the stream carries the samples the filter keeps and
    /// finishes when `body` returns (normally) or throws (with that error).
    static func launch(
        name: String, keeping makeFilter: @escaping @Sendable () -> SampleFilter,
        body: @escaping @Sendable (ReaderSession) throws -> Void
    ) throws -> (ReaderSession, AsyncThrowingStream<AccelSample, any Error>) {
        let (stream, continuation) = AsyncThrowingStream<AccelSample, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(16 * 1024))
        let session = ReaderSession(continuation: continuation, wakeup: try WakeupPipe())
        continuation.onTermination = { [weak session] _ in session?.requestStop() }
        assert(name.utf8.count <= 15, "the kernel keeps 15 bytes of a thread's name")
        let thread = Thread(named: name) {
            session.filter = makeFilter()
            do {
                try body(session)
                session.continuation.finish()
            } catch {
                session.continuation.finish(throwing: error)
            }
            session.filter = { _ in .kept }
            session.finished.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        return (session, stream)
    }

    /// Whether the thread was asked to stop.
    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Asks the thread to stop and wakes it; returns at once.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wakeup.signal()
    }

    /// Blocks until the thread has finished and freed its handles.
    func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }

    /// Asks the thread to stop and waits for it.
    func stop() {
        requestStop()
        waitUntilFinished()
    }

    /// Delivers one sample: the filter runs here, on the reader thread; only a kept sample enters the stream, and
    /// the pacing hears how soon the filter could keep another.
    func yield(_ sample: AccelSample) {
        let verdict = filter(sample)
        pacing.note(sample, keepsNoneBefore: verdict.keepsNoneBefore)
        if verdict.isKept { continuation.yield(sample) }
    }

    /// Sleeps until the next batch is due; ``ReaderWait/readable`` then means: read what the device holds now,
    /// without blocking (when it holds nothing, wait for it with ``waitForData(readable:device:timeoutMilliseconds:)``).
    ///
    /// The sleep lasts the pacing's period since the previous wake-up (``ReadPacing/restPeriod`` at rest,
    /// ``ReadPacing/motionPeriod`` within ``ReadPacing/motionHold`` of a moving sample, never more than
    /// ``ReadPacing/longestPeriod``), so one wake-up reads several samples. The device is not polled first: at the
    /// end of a period a streaming device has samples waiting, and a read that finds none costs no more than a poll
    /// would. A stop during the sleep still returns ``ReaderWait/readable`` once, so the reader takes what the device
    /// already holds; after that, ``ReaderWait/stopped``.
    func waitForBatch() throws(DeviceError) -> ReaderWait {
        guard try sleep(untilMonotonic: pacing.lastWakeup + pacing.period) else {
            guard !pacing.drained else { return .stopped }
            pacing.drained = true
            return .readable
        }
        pacing.lastWakeup = monotonicSeconds()
        return .readable
    }

    /// Blocks until `fd` has data (a device that had nothing at its batch's time), a stop is requested, or
    /// `timeoutMilliseconds` pass (-1: no timeout); a wake-up for data starts the next pacing period.
    func waitForData(
        readable fd: Int32, device: String, timeoutMilliseconds: Int32 = -1
    ) throws(DeviceError)
        -> ReaderWait
    {
        let result = try wait(readable: fd, device: device, timeoutMilliseconds: timeoutMilliseconds)
        if result == .readable { pacing.lastWakeup = monotonicSeconds() }
        return result
    }

    /// The time from this wake-up to the next, seconds, as the samples read so far set it; read on the reader thread.
    var currentPeriod: Double { pacing.period }

    /// Caps the time between wake-ups at `seconds`: the most a device's own queue holds safely (evdev's per-client
    /// buffer, an IIO buffer's length) at the rate it delivers.
    func limitPeriod(to seconds: Double) {
        pacing.longestPeriod = seconds
    }

    /// Blocks until `fd` (-1: none) is readable, a stop is requested, or `timeoutMilliseconds` pass (-1: no timeout).
    func wait(readable fd: Int32, device: String, timeoutMilliseconds: Int32 = -1) throws(DeviceError) -> ReaderWait {
        if isStopRequested { return .stopped }
        // The two descriptors live on the stack: no allocation per wait.
        var fds = (
            pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        )
        let count = try withUnsafeMutableBytes(of: &fds) { bytes throws(DeviceError) in
            let descriptors = bytes.baseAddress!.assumingMemoryBound(to: pollfd.self)
            return try checkSyscall("wait for data", device: device) {
                poll(descriptors, fd < 0 ? 1 : 2, timeoutMilliseconds)
            }
        }
        if isStopRequested || fds.0.revents != 0 { return .stopped }
        return count == 0 ? .timedOut : .readable
    }

    /// Sleeps until `deadline` (CLOCK_MONOTONIC seconds) or a stop request; returns `false` when stopped.
    func sleep(untilMonotonic deadline: Double) throws(DeviceError) -> Bool {
        while true {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return !isStopRequested }
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), 60_000))
            switch try wait(readable: -1, device: "timer", timeoutMilliseconds: milliseconds) {
            case .stopped: return false
            case .readable, .timedOut: continue
            }
        }
    }
}

/// A device opened and set up for reading; ``run(_:)`` reads it on the session's thread until the session stops.
protocol AccelerometerReading: AnyObject {
    /// Reads samples into `session` until it stops; throws when the device fails.
    func run(_ session: ReaderSession) throws
}

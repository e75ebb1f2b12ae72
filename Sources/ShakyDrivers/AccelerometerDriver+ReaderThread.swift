import Dispatch
import Foundation
import ShakyCore
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A pipe whose read end becomes readable when a reader thread should stop waiting.
final class WakeupPipe: Sendable {
    /// Watched by the reader thread's `poll`.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(DeviceError) {
        var fds: [Int32] = [-1, -1]
        try checkSyscall("create a wake-up pipe", device: "pipe") { pipe(&fds) }
        readEnd = fds[0]
        writeEnd = fds[1]
        for descriptor in fds {
            try checkSyscall("set up a wake-up pipe", device: "pipe") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            let flags = try checkSyscall("set up a wake-up pipe", device: "pipe") { fcntl(descriptor, F_GETFL) }
            try checkSyscall("set up a wake-up pipe", device: "pipe") {
                fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            }
        }
    }

    deinit {
        for descriptor in [readEnd, writeEnd] {
            do {
                try closeDescriptor(descriptor)
            } catch {
                assertionFailure("the wake-up pipe's \(error)")
            }
        }
    }

    /// Wakes the thread; harmless to call more than once (a full pipe is already a wake-up).
    func signal() {
        var byte: UInt8 = 1
        do {
            try checkSyscall("signal a wake-up pipe") { write(writeEnd, &byte, 1) }
        } catch  where error.code == EAGAIN {
            return
        } catch {
            // Only a closed descriptor (a bug: this object owns both ends while it lives) can fail here.
            assertionFailure("\(error)")
        }
    }
}

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
    private nonisolated(unsafe) var filter: SampleFilter = { _ in true }
    /// Used only by the reader thread.
    private nonisolated(unsafe) var pacing = ReadPacing()

    private init(continuation: AsyncThrowingStream<AccelSample, any Error>.Continuation, wakeup: WakeupPipe) {
        self.continuation = continuation
        self.wakeup = wakeup
    }

    /// Starts `body` on a new thread named `name` and returns the session and its stream.
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
        let thread = Thread {
            session.filter = makeFilter()
            do {
                try body(session)
                session.continuation.finish()
            } catch {
                session.continuation.finish(throwing: error)
            }
            session.filter = { _ in true }
            session.finished.signal()
        }
        thread.name = name
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

    /// Delivers one sample: the filter runs here, on the reader thread; only a kept sample enters the stream.
    func yield(_ sample: AccelSample) {
        pacing.note(sample)
        if filter(sample) { continuation.yield(sample) }
    }

    /// Blocks until the next batch of samples can be read from `fd`, or a stop is requested.
    ///
    /// First lets the pacing's period pass since the previous wake-up (``ReadPacing/restPeriod`` at rest,
    /// ``ReadPacing/motionPeriod`` within ``ReadPacing/motionHold`` of a moving sample), so one wake-up reads
    /// several samples; a device that fills its buffer up to a watermark is already readable then, and the `poll`
    /// returns at once. A stop during the wait reads what the device already has, once. After the pacing, the wait
    /// for `fd` ends after `timeoutMilliseconds` (-1: no timeout) with ``ReaderWait/timedOut``.
    func waitForBatch(
        readable fd: Int32, device: String, timeoutMilliseconds: Int32 = -1
    ) throws(DeviceError) -> ReaderWait {
        guard try sleep(untilMonotonic: pacing.lastWakeup + pacing.period) else {
            guard !pacing.drained else { return .stopped }
            pacing.drained = true
            var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = try checkSyscall("wait for data", device: device) { poll(&pending, 1, 0) }
            return ready > 0 ? .readable : .stopped
        }
        let result = try wait(readable: fd, device: device, timeoutMilliseconds: timeoutMilliseconds)
        pacing.lastWakeup = monotonicSeconds()
        return result
    }

    /// Blocks until `fd` is readable, a stop is requested, or `timeoutMilliseconds` pass (-1: no timeout).
    func wait(readable fd: Int32, device: String, timeoutMilliseconds: Int32 = -1) throws(DeviceError) -> ReaderWait {
        var fds = [
            pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        ]
        if isStopRequested { return .stopped }
        let count = try checkSyscall("wait for data", device: device) {
            poll(&fds, fd < 0 ? 1 : 2, timeoutMilliseconds)
        }
        if isStopRequested || fds[0].revents != 0 { return .stopped }
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

/// When a reader thread wakes up: every ``restPeriod`` at rest, every ``motionPeriod`` in motion.
///
/// At 100 Hz that is 20 wake-ups a second at rest (5 samples each) and 40 in motion (2–3 samples each), instead
/// of 100. A shake needs sustained motion before it completes, so by then the reader wakes every
/// ``motionPeriod`` and the shake is passed on within 25 ms of the sample that completed it.
struct ReadPacing {
    /// The time between wake-ups at rest, seconds.
    static let restPeriod = 0.05
    /// The time between wake-ups in motion, seconds: the most a shake waits on the reader.
    static let motionPeriod = 0.025
    /// How long after a moving sample (sample time) the reader keeps the motion period, seconds.
    static let motionHold = 0.5
    /// How far the magnitude may stray from 1 g and still count as rest, m/s².
    static let restTolerance = 2.0
    /// CLOCK_MONOTONIC seconds of the last wake-up.
    var lastWakeup = monotonicSeconds()
    /// Whether the samples gathered when the stop came have been read.
    var drained = false
    private var lastSampleTime = -Double.infinity
    private var movingUntil = -Double.infinity

    /// Whether the latest samples were moving.
    var isMoving: Bool { lastSampleTime < movingUntil }

    /// The time to the next wake-up, seconds.
    var period: Double { isMoving ? Self.motionPeriod : Self.restPeriod }

    /// Takes note of a sample read.
    mutating func note(_ sample: AccelSample) {
        lastSampleTime = sample.timestamp
        let squared = sample.x * sample.x + sample.y * sample.y + sample.z * sample.z
        let low = AccelSample.standardGravity - Self.restTolerance
        let high = AccelSample.standardGravity + Self.restTolerance
        if !(squared >= low * low && squared <= high * high) { movingUntil = sample.timestamp + Self.motionHold }
    }
}

/// Seconds on CLOCK_MONOTONIC, the clock the kernel timestamps IIO and evdev samples with when asked.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A device opened and set up for reading; ``run(_:)`` reads it on the session's thread until the session stops.
protocol AccelerometerReading: AnyObject {
    /// Reads samples into `session` until it stops; throws when the device fails.
    func run(_ session: ReaderSession) throws
}

/// Passes a non-Sendable value to exactly one reader thread, which owns it from then on.
final class HandOver<Value>: @unchecked Sendable {
    private var value: Value?
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Takes the value; traps if taken twice.
    func take() -> Value {
        lock.withLock {
            defer { value = nil }
            return value!
        }
    }
}

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
        name: String, keeping makeFilter: @escaping @Sendable () -> SampleFilter = { { _ in true } },
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

extension DeviceError {
    /// Whether this errno means the device is no longer there.
    var meansDeviceGone: Bool {
        code == ENODEV || code == ENOENT || code == ENXIO || code == EIO || code == ESHUTDOWN
    }

    /// This error as ``AccelerometerGoneError`` when it means the device is gone; itself otherwise.
    var classified: any Error {
        meansDeviceGone ? AccelerometerGoneError(device: device, reason: "\(operation) failed: \(reason)") : self
    }
}

import ShakyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Records live samples from any input to a trace file (`shakyd record`).
///
/// The trace's header names the device, driver and rate. A live device that goes away is waited for
/// (udev hotplug) and recording goes on when it is back; the gap stays visible in the timestamps.
/// Recording ends when `duration` passes on the clock, when a trace that does not loop ends, or when
/// the surrounding task is cancelled (SIGINT); in every case what was read is flushed to the file.
public struct TraceRecorder: Sendable {
    /// Which input to record.
    public var spec: InputSpec
    /// Rate and clock.
    public var options: AccelerometerOptions
    /// Where devices are found.
    public var table: AccelerometerDriverTable
    /// Where progress lines go (one line per call).
    public var log: @Sendable (String) -> Void

    /// Creates a recorder.
    public init(
        spec: InputSpec, options: AccelerometerOptions = AccelerometerOptions(),
        table: AccelerometerDriverTable = .standard, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.spec = spec
        self.options = options
        self.table = table
        self.log = log
    }

    /// What a recording produced.
    public struct Summary: Sendable, Equatable {
        /// The device first recorded from.
        public var source: SourceInfo
        /// Samples written.
        public var samples: Int
    }

    /// Records to `path` until `duration` passes (`nil`: until cancelled or the input ends).
    public func record(to path: String, duration: Duration?) async throws -> Summary {
        if case .trace(let input, _, _) = spec, Self.isSameFile(input, path) {
            throw TraceFormatError(
                file: path, line: 0,
                problem: "is the trace being replayed; recording would empty it: write another file")
        }
        let source = try table.open(spec, options: options)
        let info = source.info
        var metadata = TraceMetadata([
            (key: "device", value: "\(info.deviceName) (\(info.devicePath))"),
            (key: "driver", value: info.driver),
        ])
        if let rate = info.rate { metadata.entries.append((key: "rate", value: IIOSamplingFrequency.text(rate))) }
        if let matrix = info.mountMatrix { metadata.entries.append((key: "mount", value: matrix)) }
        if let frame = info.frame { metadata.entries.append((key: "frame", value: frame)) }
        if let note = info.note { metadata.entries.append((key: "note", value: note)) }
        metadata.entries.append((key: "input", value: spec.description))
        let writer = HandOver(try TraceWriter(path: path, metadata: metadata))
        log("recording from \(info) to \(path)")
        let clock = options.clock
        let count = try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask { try await self.recordSamples(from: source, to: writer.take()) }
            if let duration {
                group.addTask {
                    try await Self.sleep(for: duration, on: clock)
                    return nil
                }
            }
            var count = 0
            for try await result in group {
                if let result {
                    count = result
                    group.cancelAll()
                } else {
                    group.cancelAll()
                }
            }
            return count
        }
        log("recorded \(count) \(count == 1 ? "sample" : "samples") to \(path)")
        return Summary(source: info, samples: count)
    }

    /// Whether `first` and `second` name one existing file (a link or another spelling of the path included).
    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        var firstStatus = stat()
        var secondStatus = stat()
        guard stat(first, &firstStatus) == 0, stat(second, &secondStatus) == 0 else { return false }
        return firstStatus.st_dev == secondStatus.st_dev && firstStatus.st_ino == secondStatus.st_ino
    }

    private static func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
        do {
            try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
        } catch is CancellationError {}
    }

    /// Writes samples until the input ends or the task is cancelled, riding out unplugging when the input is live.
    private func recordSamples(from first: any AccelerometerSource, to writer: TraceWriter) async throws -> Int {
        var count = 0
        // On the way out with an error; the normal ends close it themselves, so that a failure to write is said.
        defer { try? writer.close() }
        let current = Mutex<(any AccelerometerSource)?>(first)
        let monitor = spec.isLive ? try? UdevHotplugMonitor(watching: first.info, reportsNewDevices: true) : nil
        let (backs, backContinuation) = AsyncStream.makeStream(of: String.self)
        let watcher = Task {
            guard let monitor else { return }
            for await event in monitor.events {
                switch event {
                case .gone: current.withLock { $0 }?.stop()
                case .back(let device), .appeared(let device): backContinuation.yield(device)
                }
            }
            // The monitor stopped (its socket failed): a recording waiting for the device ends instead of waiting on.
            backContinuation.finish()
        }
        defer {
            watcher.cancel()
            monitor?.stop()
            current.withLock { $0 }?.stop()
        }
        var backIterator = backs.makeAsyncIterator()
        var times = SampleTimeGuard()
        while !Task.isCancelled {
            guard let source = current.withLock({ $0 }) else { break }
            var goneError: AccelerometerGoneError?
            let droppedBefore = times.dropped
            let startInfo = source.info
            do {
                for try await sample in try source.start() {
                    if count == 0, source.info != startInfo, let note = source.info.note { log(note) }
                    guard times.admit(sample) else { continue }
                    try writer.write(sample)
                    count += 1
                }
            } catch let error as AccelerometerGoneError {
                goneError = error
            }
            if times.dropped > droppedBefore {
                log(
                    "dropped \(times.dropped - droppedBefore) samples whose time did not come after the previous one (the device's "
                        + "clock repeated or went back)")
            }
            source.stop()
            if Task.isCancelled { break }
            guard let monitor, goneError != nil || monitor.isGone else {
                if let goneError { log("\(goneError); udev cannot be watched, so recording ends") }
                break
            }
            monitor.markGone()
            try writer.flush()
            log(
                "\(goneError?.description ?? "the accelerometer \(source.info.devicePath) is gone"); waiting for it to come back"
            )
            current.withLock { $0 = nil }
            while current.withLock({ $0 }) == nil {
                guard let device = await backIterator.next() else {
                    try writer.close()
                    return count
                }
                do {
                    let reopened = try table.open(spec, options: options)
                    current.withLock { $0 = reopened }
                    log("the accelerometer is back at \(device): recording from \(reopened.info)")
                } catch {
                    log("a device appeared at \(device) but cannot be used yet: \(error)")
                }
            }
        }
        try writer.close()
        return count
    }
}

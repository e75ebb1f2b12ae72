import ShakyCore
import Synchronization

/// Replays a recorded trace (`--input trace:FILE[,speed=max][,loop]`) as if it were a live sensor.
///
/// At real speed each sample is delivered when the injected clock reaches the sample's offset from the
/// first one; at `speed=max` as fast as the reader takes them (the stream is pulled, so a slow reader
/// is never buried). With `loop` the file starts over at its end and the timestamps go on increasing:
/// each pass is shifted to begin one sample interval after the previous pass ended.
/// The file is streamed with ``TraceReader``, never loaded whole.
public final class TraceReplaySource: AccelerometerSource {
    public let info: SourceInfo
    /// The trace file.
    public let path: String
    /// Real time or as fast as possible.
    public let speed: InputSpec.ReplaySpeed
    /// Whether to start over at the end.
    public let loop: Bool
    private let clock: any Clock<Duration>
    private let generation = Atomic<Int>(0)

    /// Checks that `path` is a trace (up to its header) and describes it from its metadata.
    public init(path: String, speed: InputSpec.ReplaySpeed, loop: Bool, clock: any Clock<Duration>) throws {
        let reader = try TraceReader(path: path)
        self.path = path
        self.speed = speed
        self.loop = loop
        self.clock = clock
        info = SourceInfo(
            driver: "trace", devicePath: path, deviceName: reader.metadata["device"] ?? "recorded trace",
            // A rate that is not a real one (zero, negative, not finite, beyond any sensor) is no rate.
            rate: reader.metadata["rate"].flatMap(Double.init).flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil })
    }

    /// Starts the replay from the beginning of the file.
    public func start() throws -> AsyncThrowingStream<AccelSample, any Error> {
        let current = generation.add(1, ordering: .sequentiallyConsistent).newValue
        let replay = TraceReplay(
            reader: try TraceReader(path: path), source: self, generation: current,
            nominalInterval: info.rate.map { 1 / $0 })
        return AsyncThrowingStream(unfolding: { try await replay.next(clock: self.clock) })
    }

    /// Ends the current replay; the stream finishes at its next sample.
    public func stop() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    fileprivate func isCurrent(_ value: Int) -> Bool {
        generation.load(ordering: .sequentiallyConsistent) == value
    }
}

/// One replay's position: pulled serially by the stream, so never used from two tasks at once.
private final class TraceReplay: @unchecked Sendable {
    private var reader: TraceReader
    private let source: TraceReplaySource
    private let generation: Int
    private let nominalInterval: Double?
    /// Added to the file's timestamps; grows by one pass each time the trace loops.
    private var shift = 0.0
    private var firstInFile: Double?
    private var previous: Double?
    private var lastInterval: Double?
    private var origin: (traceTime: Double, instant: Any)?

    init(reader: TraceReader, source: TraceReplaySource, generation: Int, nominalInterval: Double?) {
        self.reader = reader
        self.source = source
        self.generation = generation
        self.nominalInterval = nominalInterval
    }

    func next(clock: any Clock<Duration>) async throws -> AccelSample? {
        guard source.isCurrent(generation) else { return nil }
        guard var sample = try nextInFile() else { return nil }
        sample.timestamp += shift
        if let previous { lastInterval = sample.timestamp - previous }
        previous = sample.timestamp
        if source.speed == .realTime {
            do {
                try await wait(until: sample.timestamp, on: clock)
            } catch is CancellationError {
                return nil
            }
        }
        return source.isCurrent(generation) ? sample : nil
    }

    /// The next sample of the file, starting the file over (shifted) at its end when looping.
    private func nextInFile() throws -> AccelSample? {
        if let sample = try reader.next() {
            if firstInFile == nil { firstInFile = sample.timestamp }
            return sample
        }
        guard source.loop, let firstInFile, let previous else { return nil }
        reader = try TraceReader(path: source.path)
        guard let sample = try reader.next() else { return nil }
        let interval = lastInterval ?? nominalInterval ?? 0.01
        shift = previous + interval - firstInFile
        return sample
    }

    /// Sleeps until the clock is `traceTime − first` past the moment the first sample was delivered.
    private func wait<C: Clock<Duration>>(until traceTime: Double, on clock: C) async throws {
        guard let origin, let start = origin.instant as? C.Instant else {
            origin = (traceTime, clock.now)
            return
        }
        // Held to 0…1e9 s so that no timestamp a file holds can trap the conversion to a duration.
        let seconds = traceTime - origin.traceTime
        let offset = Duration.seconds(seconds.isFinite ? min(max(seconds, 0), 1e9) : 0)
        try await clock.sleep(until: start.advanced(by: offset), tolerance: nil)
    }
}

/// Answers `trace:` specs with a ``TraceReplaySource``; the last entry of the standard driver table.
public struct TraceReplayDriver: AccelerometerDriver {
    public let name = "trace"

    /// Creates the driver.
    public init() {}

    public func discover(_ spec: InputSpec, options: AccelerometerOptions) -> [DiscoveredDevice] {
        guard case .trace(let path, let speed, let loop) = spec else { return [] }
        do {
            let source = try TraceReplaySource(path: path, speed: speed, loop: loop, clock: options.clock)
            return [DiscoveredDevice(driver: name, devicePath: path, deviceName: source.info.deviceName) { source }]
        } catch {
            return [DiscoveredDevice(driver: name, devicePath: path, deviceName: "-", rejection: "\(error)")]
        }
    }
}

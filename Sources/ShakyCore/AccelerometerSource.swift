/// A place accelerometer samples come from: a live sensor (IIO, evdev) or a recorded trace.
///
/// The daemon reads only while a round is open: ``start()`` turns the sensor on (enables the IIO
/// buffer, starts polling, starts reading the event stream) and returns the samples; ``stop()``
/// turns it off again and finishes that stream. A source can be started again after a stop.
///
/// Samples are read on a dedicated thread that blocks in `poll`/`read` (never a busy loop) and are
/// delivered through the stream. The stream ends:
/// - normally (`nil`) after ``stop()``, or at the end of a trace that does not loop;
/// - with ``AccelerometerGoneError`` when the device disappeared (unplugged, driver unbound): keep
///   running and wait for it to come back (hotplug);
/// - with another error for anything else (a malformed trace, a read error).
public protocol AccelerometerSource: AnyObject, Sendable {
    /// What this source reads: driver, device and rate.
    var info: SourceInfo { get }

    /// Starts reading and returns the samples, in timestamp order.
    ///
    /// Throws when the device cannot be opened (permissions, busy, gone). Calling `start()` while
    /// started stops the previous stream first.
    func start() throws -> AsyncThrowingStream<AccelSample, any Error>

    /// Starts reading and runs a filter on every sample where the samples are read, in order; only the samples
    /// the filter keeps cross into the returned stream.
    ///
    /// `makeFilter` is called once, on the thread that reads, so the filter (a shake detector) can hold state
    /// without locks. A live source calls it on its reader thread, reads several samples per wake-up and crosses
    /// into Swift concurrency only for a kept sample; the default runs the filter over ``start()``.
    func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error>

    /// Stops reading: the sensor is switched off and the current stream finishes. Idempotent.
    func stop()

    /// Sets who hears, from the thread that reads, each time ``info`` changes while reading (a buffer that never
    /// delivered, now polled); the handler replaces any earlier one. The default does nothing: most sources are
    /// read one way only.
    func onInfoChange(_ handler: @escaping @Sendable () -> Void)
}

/// Decides, for each sample in order, whether it goes on to the stream or stops where it was read, and how soon the
/// next one could go on.
public typealias SampleFilter = (AccelSample) -> SampleVerdict

/// What a ``SampleFilter`` decided about one sample.
public struct SampleVerdict: Sendable, Hashable {
    /// Whether the sample goes on to the stream.
    public var isKept: Bool
    /// The sample time, seconds, before which the filter keeps no sample whatever comes (a shake detector's
    /// cooldown, or the motion it still lacks); `-infinity` when the very next sample may be kept.
    ///
    /// A reader may read less often until shortly before then: no sample it would pass on can be waiting.
    public var keepsNoneBefore: Double

    /// Creates a verdict.
    public init(isKept: Bool, keepsNoneBefore: Double = -.infinity) {
        self.isKept = isKept
        self.keepsNoneBefore = keepsNoneBefore
    }

    /// The sample goes on; so may the next.
    public static let kept = SampleVerdict(isKept: true)
    /// The sample stops where it was read; the next may go on.
    public static let dropped = SampleVerdict(isKept: false)
}

extension AccelerometerSource {
    /// Never calls `handler`: the source is read one way only.
    public func onInfoChange(_ handler: @escaping @Sendable () -> Void) {}

    /// Runs the filter over ``start()``'s stream (sources whose samples already arrive in Swift concurrency).
    public func start(
        keeping makeFilter: @escaping @Sendable () -> SampleFilter
    ) throws -> AsyncThrowingStream<AccelSample, any Error> {
        let filtered = FilteredSamples(try start(), filter: makeFilter())
        return AsyncThrowingStream(unfolding: { try await filtered.next() })
    }
}

/// One filtered stream's position: pulled serially by its stream, so never used from two tasks at once.
private final class FilteredSamples: @unchecked Sendable {
    private var samples: AsyncThrowingStream<AccelSample, any Error>.AsyncIterator
    private let filter: SampleFilter

    init(_ samples: AsyncThrowingStream<AccelSample, any Error>, filter: @escaping SampleFilter) {
        self.samples = samples.makeAsyncIterator()
        self.filter = filter
    }

    func next() async throws -> AccelSample? {
        var passedOver = 0
        while let sample = try await samples.next() {
            if filter(sample).isKept { return sample }
            passedOver += 1
            // A source that never waits (a trace replayed at full speed, looping) would otherwise keep its thread
            // for as long as the filter keeps nothing.
            if passedOver % 4_096 == 0 { await Task.yield() }
        }
        return nil
    }
}

/// What an ``AccelerometerSource`` reads.
public struct SourceInfo: Sendable, Hashable, CustomStringConvertible {
    /// The driver's short name: `iio-buffer`, `iio-poll`, `evdev`, `trace`.
    public var driver: String
    /// The device node or file (`/dev/iio:device0`, `/dev/input/event3`, `shake.csv`).
    public var devicePath: String
    /// The device's own name (`mpu6050`, `Shaky Test Accelerometer`), or the trace's `device` metadata.
    public var deviceName: String
    /// Samples per second, when known.
    public var rate: Double?
    /// The sysfs path of the device, for matching hotplug events; `nil` for traces.
    public var sysfsPath: String?
    /// The mount matrix applied to readings, as text (`"1, 0, 0; 0, 1, 0; 0, 0, 1"`), when not the identity.
    public var mountMatrix: String?
    /// Which way the readings' axes point, in words (`controller: … lying flat: +y`), when known.
    public var frame: String?
    /// How the device is being read when that is not the usual way, and why (a fallback, a low rate).
    public var note: String?

    /// Creates a description.
    public init(
        driver: String, devicePath: String, deviceName: String, rate: Double? = nil, sysfsPath: String? = nil,
        mountMatrix: String? = nil, frame: String? = nil, note: String? = nil
    ) {
        self.driver = driver
        self.devicePath = devicePath
        self.deviceName = deviceName
        self.rate = rate
        self.sysfsPath = sysfsPath
        self.mountMatrix = mountMatrix
        self.frame = frame
        self.note = note
    }

    public var description: String {
        var text = "\(driver) \(devicePath) (\(deviceName))"
        if let rate { text += " at \(rate.formatted(maximumFractionDigits: 3)) Hz" }
        return text
    }
}

/// The device a source was reading has gone away (unplugged, driver unbound, node removed).
///
/// Ends a sample stream. The daemon keeps running and waits for a matching device to reappear.
public struct AccelerometerGoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node or name that went away.
    public var device: String
    /// What was seen, e.g. "read failed: No such device".
    public var reason: String

    /// Creates the error.
    public init(device: String, reason: String) {
        self.device = device
        self.reason = reason
    }

    public var description: String { "the accelerometer \(device) is gone (\(reason))" }
}

extension Double {
    /// Plain decimal text with at most `maximumFractionDigits` digits after the point and no trailing zeros.
    fileprivate func formatted(maximumFractionDigits: Int) -> String {
        var scale = 1.0
        for _ in 0..<maximumFractionDigits { scale *= 10 }
        let rounded = (self * scale).rounded() / scale
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}

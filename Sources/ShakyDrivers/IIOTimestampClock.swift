#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Turns an IIO device's buffer timestamps into CLOCK_MONOTONIC seconds, whatever its
/// `current_timestamp_clock` says.
///
/// shakyd asks for `monotonic`; when it may not write that attribute (an old udev rule) the kernel keeps
/// stamping with its default, `realtime`, which steps with NTP (by years on a board without a real-time clock that
/// boots in 1970 or at its last shutdown) and with whoever sets the clock; `boottime` steps over a suspend. Such
/// times are shifted by the difference between the two clocks, measured again at every wake-up of the reader
/// (``measure(realtimeMinusMonotonic:boottimeMinusMonotonic:monotonicNow:)``): a step moves the difference, and the
/// samples read after it are shifted by the new one. The samples stamped before the step but read after it need
/// the old difference: a sample's time must lie after the previous sample's and no later than the wake-up, and
/// the difference that puts it there is the one used (a sample neither puts there is held within those bounds).
/// So sample times on a monotonic reading never jump with the wall clock, forward or back.
public struct IIOTimestampClock: Sendable, Equatable {
    /// Seconds to add to a kernel timestamp to get CLOCK_MONOTONIC, as measured at the last wake-up.
    public private(set) var offset: Double
    /// The offset before the last step of the device's clock, for samples stamped before it.
    private var previousOffset: Double?
    /// CLOCK_MONOTONIC seconds of the last wake-up: no sample read then can be later.
    private var readAt = Double.infinity
    /// The last sample time handed out.
    private var lastTime = -Double.infinity
    /// The clock the kernel stamps with, as read back (`monotonic`, `realtime`, `boottime`…).
    public let clockName: String

    /// How far a sample time may lie after the wake-up that read it, seconds: the clocks are read a few microseconds
    /// apart, and a scan may arrive between the measurement and the read.
    static let readSlack = 0.05
    /// The smallest change of the clocks' difference taken for a step, seconds (they are read microseconds apart).
    static let smallestStep = 0.001

    /// A clock for `clockName`; `realtimeMinusMonotonic` and `boottimeMinusMonotonic` are the clocks'
    /// differences now.
    public init(clockName: String?, realtimeMinusMonotonic: Double, boottimeMinusMonotonic: Double) {
        let name = clockName ?? "monotonic"
        self.clockName = name
        offset = 0
        offset = offset(realtimeMinusMonotonic: realtimeMinusMonotonic, boottimeMinusMonotonic: boottimeMinusMonotonic)
    }

    /// A clock for `clockName`, with the clocks' differences measured now.
    public init(clockName: String?) {
        let now = ClockReadings.now()
        self.init(
            clockName: clockName, realtimeMinusMonotonic: now.realtimeMinusMonotonic,
            boottimeMinusMonotonic: now.boottimeMinusMonotonic)
    }

    /// Whether the device's clock can step (anything but `monotonic`), so it is measured at every wake-up.
    public var canStep: Bool { clockName != "monotonic" && clockName != "monotonic_raw" }

    private func offset(realtimeMinusMonotonic: Double, boottimeMinusMonotonic: Double) -> Double {
        switch clockName {
        case "realtime", "realtime_coarse", "tai": -realtimeMinusMonotonic
        case "boottime": -boottimeMinusMonotonic
        default: 0
        }
    }

    /// Takes the clocks' differences at a wake-up, before its scans are read; `monotonicNow` is CLOCK_MONOTONIC then.
    public mutating func measure(realtimeMinusMonotonic: Double, boottimeMinusMonotonic: Double, monotonicNow: Double) {
        let measured = offset(
            realtimeMinusMonotonic: realtimeMinusMonotonic, boottimeMinusMonotonic: boottimeMinusMonotonic)
        readAt = monotonicNow
        guard measured.isFinite, abs(measured - offset) >= Self.smallestStep else { return }
        previousOffset = offset
        offset = measured
    }

    /// Measures the clocks' differences now (at a wake-up), when the device's clock can step.
    public mutating func measure() {
        guard canStep else { return }
        let now = ClockReadings.now()
        measure(
            realtimeMinusMonotonic: now.realtimeMinusMonotonic, boottimeMinusMonotonic: now.boottimeMinusMonotonic,
            monotonicNow: now.monotonic)
    }

    /// A kernel timestamp (seconds) on CLOCK_MONOTONIC, with the difference measured last.
    public func monotonic(_ kernelSeconds: Double) -> Double { kernelSeconds + offset }

    /// The time of the next sample read at this wake-up, stamped `kernelSeconds` by the device: shifted by the
    /// difference that puts it after the previous sample and no later than the wake-up (the one measured last, else
    /// the one before the step), else held within those bounds.
    public mutating func sampleTime(_ kernelSeconds: Double) -> Double {
        guard canStep else { return kernelSeconds + offset }
        let latest = readAt + Self.readSlack
        func plausible(_ time: Double) -> Bool { time > lastTime && time <= latest }
        var time = kernelSeconds + offset
        if !plausible(time) {
            if let previousOffset, plausible(kernelSeconds + previousOffset) {
                time = kernelSeconds + previousOffset
            } else if time.isFinite {
                time = min(max(time, lastTime), latest)
            }
        }
        if time.isFinite { lastTime = max(lastTime, time) }
        return time
    }
}

/// The three clocks read together, seconds.
struct ClockReadings {
    var monotonic: Double
    var realtimeMinusMonotonic: Double
    var boottimeMinusMonotonic: Double

    static func now() -> ClockReadings {
        func seconds(_ clock: clockid_t) -> Double {
            var now = timespec()
            clock_gettime(clock, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let monotonic = seconds(CLOCK_MONOTONIC)
        return ClockReadings(
            monotonic: monotonic, realtimeMinusMonotonic: seconds(CLOCK_REALTIME) - monotonic,
            boottimeMinusMonotonic: seconds(CLOCK_BOOTTIME) - monotonic)
    }
}

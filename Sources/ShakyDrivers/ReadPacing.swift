import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// When a reader thread wakes up: every ``restPeriod`` at rest, every ``motionPeriod`` in motion.
///
/// At 100 Hz that is about 13 wake-ups a second at rest (7–8 samples each) and 40 in motion (2–3 samples each),
/// instead of 100. A shake needs sustained motion before it completes (at least 0.1 s above the threshold with
/// the lightest preset), longer than ``restPeriod``: the wake-up that first sees the motion comes before the
/// shake can complete, so by then the reader wakes every ``motionPeriod`` and the shake is passed on within 25 ms
/// of the sample that completed it.
struct ReadPacing {
    /// The time between wake-ups at rest, seconds: shorter than the shortest shake a preset detects.
    static let restPeriod = 0.075
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
    /// The most time between wake-ups the device's own queue allows, seconds (set by a reader that knows it).
    var longestPeriod = Double.infinity
    private var lastSampleTime = -Double.infinity
    private var movingUntil = -Double.infinity

    /// Whether the latest samples were moving.
    var isMoving: Bool { lastSampleTime < movingUntil }

    /// The time to the next wake-up, seconds.
    var period: Double { min(isMoving ? Self.motionPeriod : Self.restPeriod, longestPeriod) }

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

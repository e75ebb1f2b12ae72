import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// When a reader thread wakes up: as late as the filter allows, never so late that a sample it keeps waits more
/// than ``motionPeriod``.
///
/// A filter that knows how soon it could keep a sample (``SampleVerdict/keepsNoneBefore``: the shake detector, by
/// the active time its windows still lack and by its cooldown) sets the pace: the reader wakes when the first
/// sample the filter could keep may be ``motionPeriod`` old, at least ``motionPeriod`` and at most
/// ``longestQuietPeriod`` after the last wake-up. At rest with the default preset a shake needs 0.15 s of motion
/// above its threshold, so the reader wakes about every 165 ms (6 times a second at 100 Hz, 16 samples each); in a
/// shake that is about to complete, every 25 ms; in the cooldown after it, every 250 ms until the cooldown nears
/// its end. A shake is passed on within 25 ms of the sample that completed it.
///
/// Without such a filter (every sample kept) the reader wakes every ``restPeriod`` at rest and every
/// ``motionPeriod`` within ``motionHold`` of a moving sample.
struct ReadPacing {
    /// The time between wake-ups at rest when the filter says nothing of how soon it keeps a sample, seconds.
    static let restPeriod = 0.075
    /// The shortest time between wake-ups, seconds: the most a kept sample waits on the reader.
    static let motionPeriod = 0.025
    /// The longest time between wake-ups while the filter can keep nothing, seconds.
    static let longestQuietPeriod = 0.25
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
    /// The time between the last two samples, seconds (sample time): how long ago, at most, the last one read was
    /// taken, when the reader takes everything the device holds.
    private var lastInterval = 0.0
    /// Sample time before which the filter keeps nothing (``SampleVerdict/keepsNoneBefore`` of the last sample).
    private var keepsNoneBefore = -Double.infinity

    /// Whether the latest samples were moving.
    var isMoving: Bool { lastSampleTime < movingUntil }

    /// The time to the next wake-up, seconds.
    ///
    /// The first sample the filter could keep is taken at least ``keepsNoneBefore`` minus the last sample's time
    /// after the last sample, and the last sample was taken less than one sample interval before this wake-up (the
    /// reader took all there was): waking that long, less the interval, plus ``motionPeriod`` from now finds it at
    /// most ``motionPeriod`` old.
    var period: Double {
        guard keepsNoneBefore > -.infinity else {
            return min(isMoving ? Self.motionPeriod : Self.restPeriod, longestPeriod)
        }
        let quiet = keepsNoneBefore - lastSampleTime - lastInterval + Self.motionPeriod
        return min(max(Self.motionPeriod, min(quiet, Self.longestQuietPeriod)), longestPeriod)
    }

    /// Takes note of a sample read and of the time before which the filter keeps nothing.
    mutating func note(_ sample: AccelSample, keepsNoneBefore: Double = -.infinity) {
        let interval = sample.timestamp - lastSampleTime
        lastInterval = interval.isFinite && interval > 0 ? interval : 0
        self.keepsNoneBefore = keepsNoneBefore
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

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
///
/// While the filter can keep no sample (the detector's cooldown after a shake, 0.75 s with the default preset), the
/// reader keeps the rest period even in motion, and wakes so that the first sample the filter could keep again
/// still waits at most ``motionPeriod``: a shake that goes on fires again as soon after the cooldown as before.
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
    /// The time between the last two samples, seconds (sample time): how long ago, at most, the last one read was
    /// taken, when the reader takes everything the device holds.
    private var lastInterval = 0.0
    /// Sample time before which the filter keeps nothing (``SampleVerdict/keepsNoneBefore`` of the last sample).
    private var keepsNoneBefore = -Double.infinity

    /// Whether the latest samples were moving.
    var isMoving: Bool { lastSampleTime < movingUntil }

    /// The time to the next wake-up, seconds.
    ///
    /// In motion while the filter keeps nothing, the wake-up comes when the first sample it could keep may be
    /// ``motionPeriod`` old: that sample is taken at least ``keepsNoneBefore`` minus the last sample's time after
    /// the last sample, which was taken less than one sample interval before this wake-up (the reader took all
    /// there was). Never sooner than ``motionPeriod``, never later than ``restPeriod``.
    var period: Double {
        guard isMoving else { return min(Self.restPeriod, longestPeriod) }
        let quiet = keepsNoneBefore - lastSampleTime - lastInterval + Self.motionPeriod
        return min(max(Self.motionPeriod, min(quiet, Self.restPeriod)), longestPeriod)
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

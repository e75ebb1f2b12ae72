import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Learns a device's shake from two recordings, "shake the device now" and "hold it still", and turns them into
/// thresholds for `medium` within safe bounds.
///
/// Feed the samples of each step with ``addShaking(_:)`` and ``addHoldingStill(_:)`` (in timestamp order within a
/// step), then ask for ``result()``. The first ``settlingTime`` seconds of each stretch only settle the gravity
/// estimate (the player is just starting). From the shaking it takes the 90th percentile of the gravity-removed
/// acceleration, a typical stroke peak that pauses in the shaking barely move; from holding still, the noise (the
/// root mean square of what remains). `medium`'s thresholds are then scaled by the stroke peak over
/// ``referenceStrokePeak``, the 4 g shake `medium` is made for: a player who shakes half as hard gets half the
/// thresholds. Both stay within ``thresholdBounds`` and ``sustainedThresholdBounds`` and well above the noise.
///
/// Pure and allocation-free after creation: time comes only from the samples' timestamps.
public struct ShakeCalibration: Sendable {
    /// Range of the calibrated brisk threshold, m/s²: never as low as `light`'s 12 (which fires while walking), never
    /// above `hard`'s 20 plus a margin.
    public static let thresholdBounds: ClosedRange<Double> = 13...22
    /// Range of the calibrated sustained threshold, m/s² (`medium`: 4.5, `hard`: 8).
    public static let sustainedThresholdBounds: ClosedRange<Double> = 4...8
    /// The stroke peak, m/s², of the shakes `medium` is made for: hand-held phones shaken at about 4 g.
    public static let referenceStrokePeak = 4 * AccelSample.standardGravity
    /// The brisk threshold as a share of the stroke peak: `medium`'s share of the reference stroke peak.
    public static let thresholdShare = ShakeDetectorTuning.medium.threshold / referenceStrokePeak
    /// The sustained threshold as a share of the stroke peak: `medium`'s share of the reference stroke peak.
    public static let sustainedThresholdShare = ShakeDetectorTuning.medium.sustainedThreshold / referenceStrokePeak
    /// The thresholds are at least this many times the noise of holding still (brisk, sustained).
    public static let noiseMargins = (brisk: 6.0, sustained: 3.0)
    /// The stroke peak must be at least this many times the noise of holding still.
    public static let minimumPeakToNoise = 8.0
    /// Seconds at the start of each stretch that only settle the gravity estimate.
    public static let settlingTime = 0.5
    /// Seconds of shaking and of holding still, after settling, below which no result is given.
    public static let minimumDurations = (shaking: 2.0, holdingStill: 1.0)
    /// The stroke peak must be at least this many m/s² (1 g): gentler "shaking" cannot be told from handling.
    public static let minimumStrokePeak = AccelSample.standardGravity

    /// Histogram bin width, m/s², and bin count (the last bin holds everything beyond).
    static let binWidth = 0.25
    static let binCount = 400

    private var shaking = GravityRemoval()
    private var holdingStill = GravityRemoval()
    private var histogram = ContiguousArray(repeating: Int32(0), count: ShakeCalibration.binCount)
    private var shakingSamples = 0
    private var shakingTime = 0.0
    private var stillTime = 0.0
    private var stillPower = 0.0

    /// Creates an empty calibration.
    public init() {}

    /// Seconds of shaking counted so far (after settling).
    public var shakingDuration: Double { shakingTime }
    /// Seconds of holding still counted so far (after settling).
    public var holdingStillDuration: Double { stillTime }

    /// Adds a sample taken while the player shakes the device.
    public mutating func addShaking(_ sample: AccelSample) {
        guard let (motion, interval) = shaking.add(sample) else { return }
        let bin = min(Self.binCount - 1, Int(min(motion.magnitudeSquared.squareRoot() / Self.binWidth, 1e9)))
        if histogram[bin] < .max { histogram[bin] += 1 }
        shakingSamples += 1
        shakingTime += interval
    }

    /// Adds a sample taken while the player holds the device still.
    public mutating func addHoldingStill(_ sample: AccelSample) {
        guard let (motion, interval) = holdingStill.add(sample) else { return }
        stillPower += motion.magnitudeSquared * interval
        stillTime += interval
    }

    /// Ends the stretch of shaking: the next shaking sample settles the gravity estimate afresh.
    public mutating func endShakingStretch() { shaking = GravityRemoval() }

    /// Ends the stretch of holding still.
    public mutating func endHoldingStillStretch() { holdingStill = GravityRemoval() }

    /// The calibrated thresholds; throws when a step was too short or the shaking too gentle.
    public func result() throws(ShakeCalibrationError) -> ShakeCalibrationResult {
        guard shakingTime >= Self.minimumDurations.shaking else {
            throw .tooShort(step: "shaking", seconds: shakingTime, required: Self.minimumDurations.shaking)
        }
        guard stillTime >= Self.minimumDurations.holdingStill else {
            throw .tooShort(step: "holding still", seconds: stillTime, required: Self.minimumDurations.holdingStill)
        }
        let noise = (stillPower / stillTime).squareRoot()
        let peak = strokePeak()
        guard peak >= Self.minimumStrokePeak, peak >= Self.minimumPeakToNoise * noise else {
            throw .tooGentle(strokePeak: peak, noise: noise)
        }
        let threshold = Self.clamp(
            max(Self.thresholdShare * peak, Self.noiseMargins.brisk * noise), to: Self.thresholdBounds)
        let sustained = Self.clamp(
            max(Self.sustainedThresholdShare * peak, Self.noiseMargins.sustained * noise),
            to: Self.sustainedThresholdBounds)
        return ShakeCalibrationResult(
            threshold: threshold, sustainedThreshold: sustained, strokePeak: peak, noise: noise)
    }

    /// The 90th percentile of the shaking's gravity-removed acceleration (the middle of its bin).
    private func strokePeak() -> Double {
        let wanted = Int((Double(shakingSamples) * 0.9).rounded(.up))
        var seen = 0
        for (bin, count) in histogram.enumerated() {
            seen += Int(count)
            if seen >= wanted { return (Double(bin) + 0.5) * Self.binWidth }
        }
        return Double(Self.binCount) * Self.binWidth
    }

    private static func clamp(_ value: Double, to bounds: ClosedRange<Double>) -> Double {
        min(max(value, bounds.lowerBound), bounds.upperBound)
    }
}

/// What a calibration found and the thresholds it sets for `medium`.
public struct ShakeCalibrationResult: Codable, Equatable, Sendable {
    /// The brisk window's threshold, m/s² (``ShakeDetectorTuning/threshold``).
    public var threshold: Double
    /// The sustained window's threshold, m/s² (``ShakeDetectorTuning/sustainedThreshold``).
    public var sustainedThreshold: Double
    /// The typical stroke peak of the shaking (90th percentile of the gravity-removed acceleration), m/s².
    public var strokePeak: Double
    /// The noise while holding still (root mean square of the gravity-removed acceleration), m/s².
    public var noise: Double

    /// Creates a result.
    public init(threshold: Double, sustainedThreshold: Double, strokePeak: Double, noise: Double) {
        self.threshold = threshold
        self.sustainedThreshold = sustainedThreshold
        self.strokePeak = strokePeak
        self.noise = noise
    }

    /// Whether the thresholds are finite and within the calibration's safe bounds (a stored result is checked
    /// again before use).
    public var isWithinBounds: Bool {
        ShakeCalibration.thresholdBounds.contains(threshold)
            && ShakeCalibration.sustainedThresholdBounds.contains(sustainedThreshold)
    }
}

extension ShakeDetectorTuning {
    /// These settings with the thresholds of `calibration` (everything else unchanged); these settings themselves
    /// when the calibration's thresholds are out of bounds.
    public func calibrated(by calibration: ShakeCalibrationResult) -> ShakeDetectorTuning {
        guard calibration.isWithinBounds else { return self }
        var settings = self
        settings.threshold = calibration.threshold
        settings.sustainedThreshold = calibration.sustainedThreshold
        return settings
    }
}

/// Why a calibration gave no result, for a person.
public enum ShakeCalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A step held fewer usable seconds than required.
    case tooShort(step: String, seconds: Double, required: Double)
    /// The shaking was too gentle to tell from handling or from the noise of holding still.
    case tooGentle(strokePeak: Double, noise: Double)

    public var description: String {
        switch self {
        case .tooShort(let step, let seconds, let required):
            // The stretch's first seconds only settle the gravity estimate: said, as a stretch of a trace gives
            // that much less than its length.
            let settling = Self.format(ShakeCalibration.settlingTime)
            return "the \(step) step gave \(Self.format(seconds)) s of samples after its first \(settling) s, which "
                + "only settle the reading; at least \(Self.format(required)) s are needed: is the sensor being read?"
        case .tooGentle(let peak, let noise):
            return "the shaking (peaks of \(Self.format(peak)) m/s²) was too gentle to tell from holding still "
                + "(noise \(Self.format(noise)) m/s²): shake the device as the players will, harder"
        }
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return "\((value * 10).rounded() / 10)"
    }
}

/// Removes gravity from a stretch of samples with an exponential average over one second, weighted by the real
/// sample intervals; the first ``ShakeCalibration/settlingTime`` seconds only settle it.
struct GravityRemoval: Sendable {
    private var started = false
    private var startTime = 0.0
    private var lastTime = 0.0
    private var gravity = Motion(x: 0, y: 0, z: 0)

    /// The sample's gravity-removed acceleration and the time since the previous sample, or `nil` while settling
    /// and for samples the detector would ignore too.
    mutating func add(_ sample: AccelSample) -> (Motion, Double)? {
        let time = sample.timestamp
        guard time.isFinite, abs(sample.x) <= ShakeDetector.largestReading,
            abs(sample.y) <= ShakeDetector.largestReading, abs(sample.z) <= ShakeDetector.largestReading
        else { return nil }
        let interval = time - lastTime
        // A first sample, a gap or a clock going backwards starts the stretch afresh.
        guard started, interval >= 0, interval <= 0.5 else {
            started = true
            startTime = time
            lastTime = time
            gravity = Motion(x: sample.x, y: sample.y, z: sample.z)
            return nil
        }
        lastTime = time
        let gain = 1 - exp(-interval)
        gravity.x += (sample.x - gravity.x) * gain
        gravity.y += (sample.y - gravity.y) * gain
        gravity.z += (sample.z - gravity.z) * gain
        guard time - startTime >= ShakeCalibration.settlingTime, interval > 0 else { return nil }
        return (Motion(x: sample.x - gravity.x, y: sample.y - gravity.y, z: sample.z - gravity.z), interval)
    }
}

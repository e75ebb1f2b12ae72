import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

/// No input traps the detector: whatever a trace file or a device sends, `process` returns.
@Suite("ShakeDetector is total")
struct ShakeDetectorTotalityTests {
    /// Feeds `samples`, then a firm 4 Hz shake from 1 s to 2 s on a fresh clock, and
    /// returns whether that shake still triggers (an earlier clock restarts the detector): extreme input must neither trap nor break later detection.
    private func detectsShake(after samples: [AccelSample], sensitivity: ShakeSensitivity = .medium) -> Bool {
        var detector = ShakeDetector(sensitivity: sensitivity)
        for sample in samples { _ = detector.process(sample) }
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 1, to: 2)
        return motion.samples(rate: 100, to: 3).contains { detector.process($0) != nil }
    }

    @Test(
        "Huge, negative and extreme timestamps do not trap",
        arguments: [
            1e300, -1e300, 1e17, -1e17, 9.3e18, -9.3e18, Double.greatestFiniteMagnitude,
            -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
        ])
    func extremeTimestamps(time: Double) {
        var samples: [AccelSample] = []
        for step in 0..<200 {
            // Rest, then a jump to `time`, a shake-sized motion there, and back to ordinary times.
            let t = step < 100 ? Double(step) * 0.01 : time + Double(step) * 0.01
            samples.append(AccelSample(timestamp: t, x: step.isMultiple(of: 2) ? 30 : -30, y: 0, z: g))
        }
        samples.append(AccelSample(timestamp: 0, x: 0, y: 0, z: g))
        #expect(detectsShake(after: samples))
    }

    @Test("Timestamps that alternate between the ends of the Double range do not trap")
    func alternatingExtremes() {
        let samples = (0..<1000).map { step in
            AccelSample(
                timestamp: step.isMultiple(of: 2) ? Double.greatestFiniteMagnitude : -Double.greatestFiniteMagnitude,
                x: step.isMultiple(of: 3) ? 40 : -40, y: 0, z: g)
        }
        #expect(detectsShake(after: samples))
    }

    @Test("Many samples with one repeated timestamp neither trap nor trigger")
    func repeatedTimestamp() {
        var detector = ShakeDetector(sensitivity: .light)
        var fired = 0
        for step in 0..<200_000 {
            let sample = AccelSample(timestamp: 5, x: step.isMultiple(of: 2) ? 40 : -40, y: 0, z: g)
            if detector.process(sample) != nil { fired += 1 }
        }
        // No time passes, so no window can fill: a repeated timestamp adds no time.
        #expect(fired == 0)
    }

    @Test(
        "Huge, tiny and non-finite readings do not trap",
        arguments: [
            1e300, -1e300, 1e7, Double.greatestFiniteMagnitude, Double.infinity, -Double.infinity, Double.nan,
            Double.leastNonzeroMagnitude,
        ])
    func extremeReadings(value: Double) {
        var samples: [AccelSample] = []
        for step in 0..<300 {
            let t = Double(step) * 0.01
            let reading = step.isMultiple(of: 2) ? value : -value
            samples.append(AccelSample(timestamp: t, x: reading, y: step.isMultiple(of: 3) ? value : 0, z: g))
        }
        #expect(detectsShake(after: samples))
    }

    @Test("A non-finite timestamp is ignored", arguments: [Double.nan, Double.infinity, -Double.infinity])
    func nonFiniteTimestamp(time: Double) {
        var detector = ShakeDetector(sensitivity: .light)
        #expect(detector.process(AccelSample(timestamp: time, x: 50, y: 0, z: g)) == nil)
    }

    @Test("Readings beyond the largest one are ignored, not taken as motion")
    func beyondLargestReading() {
        var detector = ShakeDetector(sensitivity: .light)
        let huge = ShakeDetector.largestReading * 2
        var fired = false
        for step in 0..<300 {
            let sample = AccelSample(
                timestamp: Double(step) * 0.01, x: step.isMultiple(of: 2) ? huge : -huge, y: 0, z: g)
            if detector.process(sample) != nil { fired = true }
        }
        #expect(!fired)
    }
}

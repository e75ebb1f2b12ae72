import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

@Suite("ShakeCalibration")
struct ShakeCalibrationTests {
    /// A calibration from `shakeSeconds` of a 4 Hz shake of `amplitude` along x and `stillSeconds` of rest with
    /// `noise` m/s² of alternating jitter, at `rate` Hz.
    private func calibrate(
        amplitude: Double, shakeSeconds: Double = 4, stillSeconds: Double = 3, noise: Double = 0.05,
        rate: Double = 100
    ) throws(ShakeCalibrationError) -> ShakeCalibrationResult {
        var calibration = ShakeCalibration()
        var shaking = SyntheticMotion()
        shaking.motion = SyntheticMotion.shake(amplitude: amplitude, frequency: 4, from: 0, to: shakeSeconds)
        for sample in shaking.samples(rate: rate, to: shakeSeconds) { calibration.addShaking(sample) }
        var still = SyntheticMotion()
        still.motion = { t in (noise * (Int((t * rate).rounded()).isMultiple(of: 2) ? 1 : -1), 0, 0) }
        for sample in still.samples(rate: rate, from: 10, to: 10 + stillSeconds) {
            calibration.addHoldingStill(sample)
        }
        return try calibration.result()
    }

    @Test(
        "The thresholds follow the players' shake: medium's, scaled by its stroke peak over 4 g",
        arguments: [10.0, 50, 100])
    func followsTheShake(rate: Double) throws {
        let result = try calibrate(amplitude: 4.5 * g, rate: rate)
        // The 90th percentile of |4.5 g · sin| is about 0.99 · 4.5 g ≈ 43.7 m/s² (0.95 · 4.5 g at 10 Hz).
        #expect(abs(result.strokePeak - 43.7) < 4.5, "\(result)")
        let scale = result.strokePeak / (4 * g)
        #expect(abs(result.threshold - ShakeDetectorTuning.medium.threshold * scale) < 0.01)
        #expect(abs(result.sustainedThreshold - ShakeDetectorTuning.medium.sustainedThreshold * scale) < 0.01)
        #expect(result.noise < 0.1)
    }

    @Test("Gentle players get lower thresholds, never below the safe bounds")
    func gentleShakeStaysInBounds() throws {
        let result = try calibrate(amplitude: 1.5 * g)
        #expect(result.threshold == ShakeCalibration.thresholdBounds.lowerBound)
        #expect(result.sustainedThreshold == ShakeCalibration.sustainedThresholdBounds.lowerBound)
        let settings = ShakeDetectorTuning.medium.calibrated(by: result)
        #expect(settings.threshold < ShakeDetectorTuning.medium.threshold)
        #expect(throws: Never.self) { try settings.validate() }
    }

    @Test("Violent players get higher thresholds, never above the safe bounds")
    func violentShakeStaysInBounds() throws {
        let result = try calibrate(amplitude: 8 * g)
        #expect(result.threshold == ShakeCalibration.thresholdBounds.upperBound)
        #expect(result.sustainedThreshold == ShakeCalibration.sustainedThresholdBounds.upperBound)
    }

    @Test("A noisy sensor raises the thresholds above its noise")
    func noiseRaisesThresholds() throws {
        let quiet = try calibrate(amplitude: 3 * g, noise: 0.05)
        let noisy = try calibrate(amplitude: 3 * g, noise: 3)
        #expect(abs(noisy.noise - 3) < 0.1)
        #expect(noisy.threshold > quiet.threshold + 2)
        #expect(abs(noisy.threshold - ShakeCalibration.noiseMargins.brisk * noisy.noise) < 0.01)
    }

    @Test("Too little shaking or holding still gives no result, with the step named")
    func tooShort() {
        #expect(throws: ShakeCalibrationError.self) { try calibrate(amplitude: 3 * g, shakeSeconds: 1.5) }
        do {
            _ = try calibrate(amplitude: 3 * g, stillSeconds: 0.8)
            Issue.record("a result from 0.3 s of holding still")
        } catch {
            #expect(error.description.contains("holding still"))
            // A stretch of a trace gives half a second less than its length: the message says why.
            #expect(error.description.contains("after its first 0.5 s, which only settle the reading"))
        }
    }

    @Test("Shaking no stronger than the noise gives no result")
    func tooGentle() {
        #expect(throws: ShakeCalibrationError.self) { try calibrate(amplitude: 0.5 * g) }
        #expect(throws: ShakeCalibrationError.self) { try calibrate(amplitude: 2 * g, noise: 3) }
    }

    @Test("Extreme samples do not trap and do not count")
    func extremeSamples() throws {
        var calibration = ShakeCalibration()
        for step in 0..<1000 {
            let value = step.isMultiple(of: 3) ? Double.nan : (step.isMultiple(of: 2) ? 1e300 : -1e300)
            calibration.addShaking(AccelSample(timestamp: Double(step) * 0.01, x: value, y: 0, z: g))
            calibration.addHoldingStill(
                AccelSample(timestamp: step.isMultiple(of: 2) ? 1e300 : -1e300, x: 0, y: 0, z: g))
        }
        #expect(calibration.shakingDuration == 0)
        #expect(throws: ShakeCalibrationError.self) { try calibration.result() }
    }

    @Test("Out-of-bounds results leave the settings as they are")
    func outOfBoundsIsIgnored() {
        let wild = ShakeCalibrationResult(threshold: 2, sustainedThreshold: .nan, strokePeak: 4, noise: 0)
        #expect(ShakeDetectorTuning.medium.calibrated(by: wild) == .medium)
    }
}

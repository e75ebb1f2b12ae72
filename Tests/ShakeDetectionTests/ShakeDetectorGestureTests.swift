import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

/// Deliberate single gestures against shakes: a shake goes back and forth along one line, a circle does not, and a
/// 10 Hz phone sees weaker samples of the same stroke.
@Suite("ShakeDetector on gestures and low rates")
struct ShakeDetectorGestureTests {
    /// One second of 4 Hz motion of ±`amplitude` along x, and as much along y a quarter turn later when `circle`.
    private func motion(amplitude: Double, circle: Bool) -> SyntheticMotion {
        var motion = SyntheticMotion()
        motion.motion = { t in
            guard t >= 2, t < 3 else { return (0, 0, 0) }
            let phase = 2 * Double.pi * 4 * (t - 2)
            return (amplitude * sin(phase), circle ? amplitude * cos(phase) : 0, 0)
        }
        return motion
    }

    @Test("A circle drawn in the air does not trigger medium or hard; the same stroke along one line does")
    func circleAgainstLine() throws {
        for settings in [ShakeDetectorTuning.medium, .hard] {
            let circle = try triggerTimes(
                motion(amplitude: 3 * g, circle: true).samples(rate: 100, to: 5), settings: settings)
            #expect(circle.isEmpty, "\(circle)")
            let line = try triggerTimes(
                motion(amplitude: 3 * g, circle: false).samples(rate: 100, to: 5), settings: settings)
            #expect(line.count == 1)
        }
    }

    @Test("With the line test off (cross share 1) the circle triggers: the test is what turns it away")
    func circleWithTestOff() throws {
        var settings = ShakeDetectorTuning.medium
        settings.maximumCrossShare = 1
        let circle = try triggerTimes(
            motion(amplitude: 3 * g, circle: true).samples(rate: 100, to: 5), settings: settings)
        #expect(!circle.isEmpty)
    }

    @Test("At 10 Hz a gentler shake (±1.5 g, up and down) triggers medium through the lower share of its threshold")
    func gentleShakeAtTenHertz() throws {
        // Along gravity, so that only the brisk window can take it (the sustained one turns up-and-down away).
        var vertical = SyntheticMotion()
        vertical.motion = SyntheticMotion.shake(amplitude: 1.5 * g, frequency: 4, from: 2, to: 3, axis: (0, 0, 1))
        let samples = vertical.samples(rate: 10, to: 5)
        #expect(try triggerTimes(samples, settings: .medium).count == 1)
        var full = ShakeDetectorTuning.medium
        full.coarseThresholdShare = 1
        #expect(try triggerTimes(samples, settings: full).isEmpty)
    }
}

import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

/// Deliberate single gestures against shakes: a shake goes back and forth, a circle or an ellipse keeps turning one
/// way, and a 10 Hz phone sees weaker samples of the same stroke.
@Suite("ShakeDetector on gestures and low rates")
struct ShakeDetectorGestureTests {
    /// One second of 4 Hz motion of ±`amplitude` along x, and ±`minor` times as much along y a quarter turn later:
    /// a line (0), an ellipse, a circle (1); with `wobble` the y part flips every half cycle instead (a shake whose
    /// direction tilts one way and back, a figure of eight).
    private func motion(amplitude: Double, minor: Double, wobble: Bool = false) -> SyntheticMotion {
        var motion = SyntheticMotion()
        motion.motion = { t in
            guard t >= 2, t < 3 else { return (0, 0, 0) }
            let phase = 2 * Double.pi * 4 * (t - 2)
            let across = wobble ? sin(2 * phase) : cos(phase)
            return (amplitude * sin(phase), minor * amplitude * across, 0)
        }
        return motion
    }

    /// A shake that wobbles as far across as the ellipse, one way and back, still triggers: its turns cancel.
    @Test(
        "Circles and round ellipses do not trigger medium or hard; lines and wobbling shakes do",
        arguments: [ShakeDetectorTuning.medium, .hard])
    func circleAgainstLine(settings: ShakeDetectorTuning) throws {
        for minor in [1.0, 0.5] {
            let round = try triggerTimes(
                motion(amplitude: 3 * g, minor: minor).samples(rate: 100, to: 5), settings: settings)
            #expect(round.isEmpty, "minor axis \(minor): \(round)")
        }
        let line = try triggerTimes(motion(amplitude: 3 * g, minor: 0).samples(rate: 100, to: 5), settings: settings)
        #expect(!line.isEmpty)
        let wobble = try triggerTimes(
            motion(amplitude: 3 * g, minor: 0.5, wobble: true).samples(rate: 100, to: 5), settings: settings)
        #expect(!wobble.isEmpty)
    }

    @Test("With the rotation test off (1) the circle triggers: the test is what turns it away")
    func circleWithTestOff() throws {
        var settings = ShakeDetectorTuning.medium
        settings.maximumRotation = 1
        let circle = try triggerTimes(
            motion(amplitude: 3 * g, minor: 1).samples(rate: 100, to: 5), settings: settings)
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

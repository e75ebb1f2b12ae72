import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

@Suite("ShakeDetector reversals: swipes, turning the device over, elliptical shakes")
struct ShakeDetectorReversalTests {
    /// One full sine cycle of acceleration along x over `duration` seconds: speed up, then brake to a stop.
    static func swipe(
        amplitude: Double, duration: Double, from start: Double
    )
        -> @Sendable (Double) -> (
            x: Double, y: Double, z: Double
        )
    {
        { t in
            guard t >= start, t < start + duration else { return (0, 0, 0) }
            return (amplitude * sin(2 * Double.pi * (t - start) / duration), 0, 0)
        }
    }

    @Test("A brisk swipe (speed up, then brake: one reversal) does not trigger medium", arguments: [50.0, 100])
    func swipeIsSilent(rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = Self.swipe(amplitude: 3 * g, duration: 0.3, from: 2)
        let samples = motion.samples(rate: rate, to: 4)
        #expect(try triggerTimes(samples, settings: .medium).isEmpty)
        // The same swipe with the brisk window asking for one reversal fires: the second reversal is what it lacks.
        var oneReversal = ShakeDetectorTuning.medium
        oneReversal.minimumReversals = 1
        #expect(try triggerTimes(samples, settings: oneReversal).count == 1)
    }

    @Test("Turning the device over in 0.3 s does not trigger medium or hard", arguments: [10.0, 50, 100])
    func turningOverIsSilent(rate: Double) throws {
        var motion = SyntheticMotion()
        // Gravity turns from +z to -z through +x; the apparent motion is the turned gravity minus the resting one.
        motion.motion = { t in
            let angle = Double.pi * min(max((t - 2) / 0.3, 0), 1)
            return (g * sin(angle), 0, g * cos(angle) - g)
        }
        for sensitivity in [ShakeSensitivity.medium, .hard] {
            let times = try triggerTimes(
                motion.samples(rate: rate, to: 6), settings: ShakeDetectorTuning(sensitivity: sensitivity))
            #expect(times.isEmpty, "\(sensitivity): \(times)")
        }
    }

    @Test(
        "An elliptical shake whose direction turns gradually triggers medium within 0.6 s, the harder the sooner",
        arguments: [50.0, 100])
    func ellipticalShake(rate: Double) throws {
        // Across gravity, 5 Hz, the minor axis 0.15 of the major one: gentle ones are for the sustained window, whose
        // strong samples reach further round each turn the harder the shake; each must still count as a reversal.
        var first: [Double] = []
        for amplitude in [0.6, 1.0, 1.5, 3] {
            var motion = SyntheticMotion()
            motion.motion = { t in
                guard t >= 1, t < 2 else { return (0, 0, 0) }
                let phase = 2 * Double.pi * 5 * (t - 1)
                return (amplitude * g * sin(phase), 0.15 * amplitude * g * cos(phase), 0)
            }
            let times = try triggerTimes(motion.samples(rate: rate, to: 3), settings: .medium)
            try #require(!times.isEmpty, "±\(amplitude) g")
            #expect(times[0] >= 1 && times[0] <= 1.6, "±\(amplitude) g: \(times)")
            first.append(times[0])
        }
        #expect(first == first.sorted(by: >), "\(first)")
    }

    @Test("Below 20 Hz, two strong samples pointing the same way after a dip count as a reversal")
    func coarseDipCounts() throws {
        // At 10 Hz a 3.3 Hz shake of 2.2 g (below the magnitude that counts on its own) shows as strong, weak,
        // weak, strong: the strong samples point the same way, the weak ones back.
        var motion = SyntheticMotion()
        motion.motion = { t in
            guard t >= 1, t < 2 else { return (0, 0, 0) }
            return (2.2 * g * sin(2 * Double.pi * (10.0 / 3) * (t - 1) + Double.pi / 2), 0, 0)
        }
        let times = try triggerTimes(motion.samples(rate: 10, to: 3), settings: .medium)
        try #require(times.count == 1)
        // The brisk window fires on the second strong sample, before the sustained one could.
        #expect(times[0] >= 1.25 && times[0] <= 1.35, "\(times)")
    }
}

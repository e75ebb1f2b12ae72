import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

@Suite("ShakeDetector below 20 Hz: turns, knocks, strokes that grow, short gentle shakes; steady sustained shaking")
struct ShakeDetectorCoarseTests {
    /// Samples every 0.1 s from 0 to 5 s of a device lying face-up, with the readings at 2.0 s, 2.1 s, … replaced
    /// by `readings` (each including gravity, m/s²) and every later one by the last of them.
    static func tenHertz(from readings: [(x: Double, y: Double, z: Double)]) -> [AccelSample] {
        (0..<50).map { index in
            let time = Double(index) / 10
            guard index >= 20, let last = readings.last else {
                return AccelSample(timestamp: time, x: 0, y: 0, z: g)
            }
            let reading = index - 20 < readings.count ? readings[index - 20] : last
            return AccelSample(timestamp: time, x: reading.x, y: reading.y, z: reading.z)
        }
    }

    @Test("At 10 Hz a jolt followed by turning the device does not trigger medium; the same jolt coming back does")
    func joltThenTurn() throws {
        // A 1.7 g jolt along +x, then the device turned a quarter round (gravity now along -x): the gravity estimate
        // lags, so the second sample shows about 1.4 g pointing back against the jolt, like a shake's first stroke,
        // and the apparent motion then stays there.
        let jolt = (x: 1.6 * g, y: 0.0, z: 1.5 * g)
        let turned = (x: -g, y: 0.0, z: 0.0)
        #expect(try triggerTimes(Self.tenHertz(from: [jolt, turned]), settings: .medium).isEmpty)
        // The same two samples, then back at rest: a short stroke pair that comes back fires, one sample later.
        let rest = (x: 0.0, y: 0.0, z: g)
        let times = try triggerTimes(Self.tenHertz(from: [jolt, turned, rest]), settings: .medium)
        try #require(times.count == 1)
        #expect(abs(times[0] - 2.2) < 1e-9, "\(times)")
    }

    @Test("At 10 Hz a knock (one strong sample, a weak rebound, then nothing) does not trigger medium")
    func knockWithWeakRebound() throws {
        let rest = (x: 0.0, y: 0.0, z: g)
        // 4 g along +x, then 1 g back: the hand absorbing a knock. With the gravity estimate's lag the way back shows
        // about 1.3 g, then 0.3 g: under half of the knock's impulse; a shake's way back carries all of it.
        let knock = [(x: 4 * g, y: 0.0, z: g), (x: -g, y: 0.0, z: g)]
        #expect(try triggerTimes(Self.tenHertz(from: knock + [rest]), settings: .medium).isEmpty)
        // The same stroke answered by a way back over two samples (1.3 g, then 1 g) is a short shake: it fires when
        // the motion comes back.
        let shake = [(x: 4 * g, y: 0.0, z: g), (x: -1.3 * g, y: 0.0, z: g), (x: -g, y: 0.0, z: g), rest]
        let times = try triggerTimes(Self.tenHertz(from: shake), settings: .medium)
        try #require(times.count == 1, "\(times)")
        #expect(abs(times[0] - 2.3) < 1e-9, "\(times)")
    }

    @Test("At 10 Hz a knock's weak rebound followed by a third stroke triggers medium at once")
    func knockThenThirdStroke() throws {
        // After the weak rebound the motion swings back strongly: a third stroke, a shake after all.
        let strokes = [(x: 4 * g, y: 0.0, z: g), (x: -g, y: 0.0, z: g), (x: 2 * g, y: 0.0, z: g)]
        let times = try triggerTimes(Self.tenHertz(from: strokes), settings: .medium)
        try #require(times.count == 1, "\(times)")
        #expect(abs(times[0] - 2.2) < 1e-9, "\(times)")
    }

    @Test("At 10 Hz short gentle shakes (0.5 s, ±1.7 g) in quick succession each trigger medium")
    func shortGentleShakes() throws {
        // 4 Hz at 10 Hz: each shake shows two strong samples (±1.6 g) pointing apart, then one coming back.
        var motion = SyntheticMotion()
        motion.motion = { t in
            for start in [2.0, 3.0, 4.0] where t >= start && t < start + 0.5 {
                return (1.7 * g * sin(2 * Double.pi * 4 * (t - start)), 0, 0)
            }
            return (0, 0, 0)
        }
        let times = try triggerTimes(motion.samples(rate: 10, to: 6), settings: .medium)
        try #require(times.count == 3, "\(times)")
        for (time, start) in zip(times, [2.0, 3.0, 4.0]) {
            #expect(time >= start + 0.25 && time <= start + 0.45, "\(times)")
        }
    }

    @Test("At 10 Hz a stroke that grows over two samples is one stroke: it triggers medium only on the way back")
    func growingStroke() throws {
        let rest = (x: 0.0, y: 0.0, z: g)
        // 1.6 g, then 3.2 g the same way (beyond what turning the device can fake, but no reversal), then rest.
        let growing = [(x: 1.6 * g, y: 0.0, z: g), (x: 3.2 * g, y: 0.0, z: g)]
        #expect(try triggerTimes(Self.tenHertz(from: growing + [rest]), settings: .medium).isEmpty)
        // The same stroke followed by a strong one the other way.
        let times = try triggerTimes(
            Self.tenHertz(from: growing + [(x: -2 * g, y: 0.0, z: g), rest]), settings: .medium)
        try #require(times.count == 1)
        #expect(abs(times[0] - 2.2) < 1e-9, "\(times)")
    }

    @Test("The sustained window takes steady shaking only: a crest-factor limit below a sine's √2 turns it away")
    func sustainedCrestFactor() throws {
        // ±1 g never reaches the brisk threshold: only the sustained window can fire. A sine's crest factor is √2,
        // under medium's 2√2; a few jolts between weaker motion are far above it.
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: g, frequency: 5, from: 1, to: 3)
        let samples = motion.samples(rate: 50, to: 4)
        #expect(ShakeDetectorTuning.medium.sustainedMaximumCrestFactor == 2 * 2.0.squareRoot())
        #expect(try !triggerTimes(samples, settings: .medium).isEmpty)
        var strict = ShakeDetectorTuning.medium
        strict.sustainedMaximumCrestFactor = 1.2
        #expect(try triggerTimes(samples, settings: strict).isEmpty)
    }
}

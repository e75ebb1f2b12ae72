import Foundation
import ShakeDetection
import ShakyCore
import Testing

private let g = AccelSample.standardGravity

@Suite("ShakeDetector on synthetic motion")
struct ShakeDetectorTests {
    @Test("A single spike never triggers", arguments: ShakeSensitivity.allCases, [10.0, 50, 100])
    func oneSpike(sensitivity: ShakeSensitivity, rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = { t in abs(t - 2) < 0.5 / rate ? (4 * g, -2 * g, 3 * g) : (0, 0, 0) }
        let times = try triggerTimes(
            motion.samples(rate: rate, to: 4), settings: ShakeDetectorTuning(sensitivity: sensitivity))
        #expect(times.isEmpty)
    }

    @Test("One second of 4 Hz ±2 g shaking triggers once, within 0.2 s (light)", arguments: [50.0, 100])
    func gentleShakeLight(rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 2 * g, frequency: 4, from: 2, to: 3)
        let times = try triggerTimes(motion.samples(rate: rate, to: 5), settings: .light)
        try #require(times.count == 1)
        #expect(times[0] >= 2 && times[0] <= 2.2)
    }

    @Test("0.7 s of 4 Hz ±3 g shaking triggers every preset once, within 0.5 s", arguments: ShakeSensitivity.allCases)
    func firmShake(sensitivity: ShakeSensitivity) throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 2, to: 2.7)
        let times = try triggerTimes(
            motion.samples(rate: 100, to: 5), settings: ShakeDetectorTuning(sensitivity: sensitivity))
        try #require(times.count == 1)
        #expect(times[0] >= 2 && times[0] <= 2.5)
    }

    @Test("0.7 s of 4 Hz ±3 g shaking triggers medium once, within 0.3 s", arguments: [10.0, 50, 100])
    func firmShakeMediumLatency(rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 2, to: 2.7)
        let times = try triggerTimes(motion.samples(rate: rate, to: 5), settings: .medium)
        try #require(times.count == 1)
        #expect(times[0] >= 2 && times[0] <= 2.3, "\(times)")
    }

    @Test("Gentle steady shaking (5 Hz, ±1 g, across gravity) from a cold start mid-shake triggers medium once")
    func gentleSustainedShake() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: g, frequency: 5, from: -1, to: 1, axis: (0, 1, 0))
        let times = try triggerTimes(motion.samples(rate: 50, to: 1), settings: .medium)
        try #require(times.count == 1)
        #expect(times[0] <= 0.8)
    }

    @Test(
        "Gentle steady motion triggers medium only at a hand's pace and across gravity",
        arguments: [
            (frequency: 5.0, axis: "across", rate: 50.0, triggers: true),
            (frequency: 5.0, axis: "across", rate: 100.0, triggers: true),
            (frequency: 10.0, axis: "across", rate: 50.0, triggers: false),
            (frequency: 10.0, axis: "across", rate: 100.0, triggers: false),
            (frequency: 5.0, axis: "along", rate: 50.0, triggers: false),
            (frequency: 5.0, axis: "along", rate: 100.0, triggers: false),
        ])
    func gentleMotionShape(frequency: Double, axis: String, rate: Double, triggers: Bool) throws {
        // ±1 g never reaches the brisk threshold, so only the sustained window can fire: a 10 Hz vibration is too
        // fast for a hand, and the same motion along gravity is what walking or lifting looks like.
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(
            amplitude: g, frequency: frequency, from: 1, to: 4, axis: axis == "across" ? (1, 0, 0) : (0, 0, 1))
        let times = try triggerTimes(motion.samples(rate: rate, to: 5), settings: .medium)
        if triggers {
            try #require(!times.isEmpty)
            #expect(times[0] >= 1 && times[0] <= 1.6, "\(times)")
        } else {
            #expect(times.isEmpty, "\(times)")
        }
    }

    @Test("The sustained window's limits can be lifted: then a vibration or up-and-down motion triggers")
    func sustainedLimitsAreSettings() throws {
        var settings = ShakeDetectorTuning.medium
        settings.sustainedMaximumFrequency = 50
        settings.sustainedMaximumVerticalShare = 1
        for (frequency, axis) in [(10.0, (1.0, 0.0, 0.0)), (5.0, (0.0, 0.0, 1.0))] {
            var motion = SyntheticMotion()
            motion.motion = SyntheticMotion.shake(amplitude: g, frequency: frequency, from: 1, to: 4, axis: axis)
            #expect(try !triggerTimes(motion.samples(rate: 100, to: 5), settings: settings).isEmpty)
        }
    }

    @Test("The event reports the trigger sample's time and the window's peak")
    func eventContents() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 1, to: 1.7)
        var detector = ShakeDetector(sensitivity: .medium)
        let samples = motion.samples(rate: 100, to: 3)
        let events = samples.compactMap { detector.process($0) }
        try #require(events.count == 1)
        #expect(samples.contains { $0.timestamp == events[0].timestamp })
        #expect(events[0].peakMagnitude > 14 && events[0].peakMagnitude < 3 * g + 1)
    }

    /// The windows keep counting through the cooldown: a shake still going on fires again on its first strong sample
    /// after it; one that stopped during the cooldown does not.
    @Test(
        "Cooldown: a long shake triggers once per cooldown",
        arguments: [(3.0, 1.5, 2), (3.0, 1.0, 3), (3.0, 5.0, 1), (1.0, 1.5, 1), (3.0, 0.45, 6)])
    func cooldown(duration: Double, cooldown: Double, expected: Int) throws {
        var settings = ShakeDetectorTuning.medium
        settings.cooldown = cooldown
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 1, to: 1 + duration)
        let times = try triggerTimes(motion.samples(rate: 100, to: duration + 3), settings: settings)
        #expect(times.count == expected, "\(times)")
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= cooldown - 1e-9)
            #expect(later - earlier <= cooldown + 0.1, "the first strong sample after the cooldown fires")
        }
    }

    static let orientations: [(x: Double, y: Double, z: Double)] = [
        (0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (1, 1, 1), (-0.3, 0.8, -0.5),
    ]

    @Test("At rest on any side: no trigger, even from a cold start", arguments: orientations.indices)
    func restAnyOrientation(index: Int) throws {
        var motion = SyntheticMotion()
        motion.gravityDirection = Self.orientations[index]
        // Sensor noise: a deterministic ±0.2 m/s² wobble on every axis.
        motion.motion = { t in (0.2 * sin(97 * t), 0.2 * cos(61 * t), 0.2 * sin(43 * t + 1)) }
        for sensitivity in ShakeSensitivity.allCases {
            let times = try triggerTimes(
                motion.samples(rate: 100, to: 10), settings: ShakeDetectorTuning(sensitivity: sensitivity))
            #expect(times.isEmpty, "\(sensitivity)")
        }
    }

    /// Shaking along gravity or across it moves the gravity estimate differently, so trigger times may differ by a
    /// few samples; the decisions (how many, when to within 50 ms) do not.
    @Test("Shaken on any side: the same decision as face-up", arguments: orientations.indices)
    func shakeAnyOrientation(index: Int) throws {
        func run(_ direction: (x: Double, y: Double, z: Double)) throws -> [Double] {
            var motion = SyntheticMotion()
            motion.gravityDirection = direction
            motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 2, to: 4)
            return try triggerTimes(motion.samples(rate: 100, to: 6), settings: .medium)
        }
        let reference = try run((0, 0, 1))
        let times = try run(Self.orientations[index])
        try #require(times.count == reference.count)
        #expect(reference.count == 3)
        for (a, b) in zip(times, reference) { #expect(abs(a - b) <= 0.05) }
    }

    @Test("10, 50 and 100 Hz sampling of the same motion decide the same", arguments: [10.0, 50])
    func rateIndependence(rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = { t in
            let first = SyntheticMotion.shake(amplitude: 3 * g, frequency: 3, from: 1, to: 2)(t)
            let second = SyntheticMotion.shake(amplitude: 4 * g, frequency: 3, from: 4, to: 7.5)(t)
            let bump = abs(t - 9) < 0.05 ? (0.0, 3 * g, 0.0) : (0.0, 0.0, 0.0)
            return (first.x + second.x + bump.0, first.y + second.y + bump.1, first.z + second.z + bump.2)
        }
        for sensitivity in ShakeSensitivity.allCases {
            var settings = ShakeDetectorTuning(sensitivity: sensitivity)
            // A 1 s cooldown for every preset keeps the long shake's last repeat away from the shake's end, where
            // the sample rate alone could decide whether it fires.
            settings.cooldown = 1
            let reference = try triggerTimes(motion.samples(rate: 100, to: 10), settings: settings)
            let times = try triggerTimes(motion.samples(rate: rate, to: 10), settings: settings)
            try #require(times.count == reference.count, "\(sensitivity): \(times) vs \(reference)")
            // One trigger for the short shake, four for the long one (one per second of its 3.5 s), none for the bump.
            #expect(reference.count == 5, "\(sensitivity): \(reference)")
            // Below 20 Hz a shake's reversals are aliased, so the brisk window needs one reversal fewer and fires
            // about half a cycle sooner. Each shake is found as soon, up to 0.25 s earlier or later, and fires as
            // often; a long shake's repeats follow the cooldown, so their lead adds up and is not compared.
            let tolerance = rate < 20 ? 0.25 : 0.1
            for (start, end) in [(1.0, 2.0), (4.0, 7.5)] {
                let inShake = times.filter { $0 >= start && $0 <= end + 0.5 }
                let inReference = reference.filter { $0 >= start && $0 <= end + 0.5 }
                try #require(inShake.count == inReference.count, "\(sensitivity): \(times) vs \(reference)")
                try #require(!inReference.isEmpty, "\(sensitivity): \(reference)")
                #expect(abs(inShake[0] - inReference[0]) <= tolerance, "\(sensitivity): \(times) vs \(reference)")
            }
        }
    }

    @Test("Walking with heel strikes never triggers", arguments: [ShakeSensitivity.medium, .hard], [50.0, 100])
    func walking(sensitivity: ShakeSensitivity, rate: Double) throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.walking()
        let times = try triggerTimes(
            motion.samples(rate: rate, to: 60), settings: ShakeDetectorTuning(sensitivity: sensitivity))
        #expect(times.isEmpty)
    }

    @Test("Uneven sample intervals give the same decision as even ones")
    func unevenIntervals() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 2, to: 2.7)
        // Intervals between 5 and 25 ms from a fixed linear congruential sequence.
        var times: [Double] = []
        var t = 0.0
        var state: UInt64 = 12345
        while t < 5 {
            times.append(t)
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            t += 0.005 + 0.020 * Double(state >> 11) / Double(1 << 53)
        }
        let even = try triggerTimes(motion.samples(rate: 100, to: 5), settings: .medium)
        let uneven = try triggerTimes(motion.samples(at: times), settings: .medium)
        try #require(even.count == 1 && uneven.count == 1)
        #expect(abs(even[0] - uneven[0]) <= 0.025)
    }

    @Test("Repeated timestamps add no time and change nothing")
    func repeatedTimestamps() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 1, to: 2)
        let samples = motion.samples(rate: 50, to: 3)
        let doubled = samples.flatMap { [$0, $0] }
        #expect(try triggerTimes(doubled, settings: .medium) == triggerTimes(samples, settings: .medium))
    }

    @Test("A gap restarts the gravity estimate: turned over during the gap, no trigger")
    func gapRestartsGravity() throws {
        var faceUp = SyntheticMotion()
        faceUp.motion = { t in (0.1 * sin(50 * t), 0, 0) }
        var faceDown = faceUp
        faceDown.gravityDirection = (0, 0, -1)
        // 10 s face-up, a 2 s gap, then 5 s face-down with a small wobble.
        let samples = faceUp.samples(rate: 50, to: 10) + faceDown.samples(rate: 50, from: 12, to: 17)
        #expect(try triggerTimes(samples, settings: .light).isEmpty)
        // A shake after the gap is found as from a cold start.
        var shaken = faceDown
        shaken.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 13, to: 13.7)
        let shakeAfterGap = faceUp.samples(rate: 50, to: 10) + shaken.samples(rate: 50, from: 12, to: 17)
        let times = try triggerTimes(shakeAfterGap, settings: .medium)
        try #require(times.count == 1)
        #expect(times[0] > 13 && times[0] < 13.5)
    }

    @Test("Time going backwards resets instead of misbehaving")
    func backwardsTime() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 1, to: 1.7)
        let run = motion.samples(rate: 50, to: 3)
        var detector = ShakeDetector(sensitivity: .medium)
        let first = run.compactMap { detector.process($0)?.timestamp }
        let second = run.compactMap { detector.process($0)?.timestamp }
        #expect(first.count == 1)
        #expect(second == first)
    }

    @Test("reset() returns to the cold-start state")
    func resetForgets() throws {
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 0, to: 1)
        let samples = motion.samples(rate: 50, to: 1)
        var detector = ShakeDetector(sensitivity: .medium)
        let first = samples.compactMap { detector.process($0)?.timestamp }
        detector.reset()
        let second = samples.compactMap { detector.process($0)?.timestamp }
        #expect(first.count == 1)
        #expect(first == second)
    }

    @Test("Non-finite samples are ignored")
    func nonFinite() throws {
        var detector = ShakeDetector(sensitivity: .light)
        #expect(detector.process(AccelSample(timestamp: 0, x: .nan, y: 0, z: 0)) == nil)
        #expect(detector.process(AccelSample(timestamp: .infinity, x: 0, y: 0, z: g)) == nil)
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 3 * g, frequency: 4, from: 0, to: 1)
        #expect(motion.samples(rate: 50, to: 1).compactMap { detector.process($0) }.count == 1)
    }

    @Test("Presets are ordered: light fires on gentler shaking than medium, medium than hard")
    func presetOrdering() throws {
        func weakestTriggering(_ settings: ShakeDetectorTuning) throws -> Double? {
            for tenthsOfG in 5...60 {
                var motion = SyntheticMotion()
                let amplitude = Double(tenthsOfG) / 10 * g
                motion.motion = SyntheticMotion.shake(amplitude: amplitude, frequency: 4, from: 1, to: 2)
                if try !triggerTimes(motion.samples(rate: 100, to: 3), settings: settings).isEmpty {
                    return amplitude
                }
            }
            return nil
        }
        let light = try #require(try weakestTriggering(.light))
        let medium = try #require(try weakestTriggering(.medium))
        let hard = try #require(try weakestTriggering(.hard))
        #expect(light < medium)
        #expect(medium < hard)
    }
}

import Foundation
import ShakeDetection
import ShakyCore
import ShakyTesting
import Testing

private let g = AccelSample.standardGravity

/// ``ShakeDetector/firesNoSoonerThan``: the reader sleeps on it, so a detector must never fire before it.
@Suite("ShakeDetector's quiet time: never later than a shake it fires")
struct ShakeDetectorQuietTimeTests {
    /// Feeds `samples`; fails at any shake that fires before the quiet time any earlier sample named. Returns how
    /// many fired, and the quiet time after the last sample as time from it.
    private static func checkQuietTime(
        _ samples: [AccelSample], settings: ShakeDetectorTuning, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (fired: Int, lastQuiet: Double) {
        var detector = try ShakeDetector(settings: settings)
        var latestQuiet = -Double.infinity
        var fired = 0
        for sample in samples {
            if detector.process(sample) != nil {
                fired += 1
                #expect(
                    sample.timestamp >= latestQuiet, "fired at \(sample.timestamp), quiet until \(latestQuiet)",
                    sourceLocation: sourceLocation)
            }
            latestQuiet = max(latestQuiet, detector.firesNoSoonerThan)
        }
        return (fired, detector.firesNoSoonerThan - (samples.last?.timestamp ?? 0))
    }

    static let presets: [ShakeDetectorTuning] = [.light, .medium, .hard]

    @Test("Shakes of every speed, strength and rate fire no sooner than the detector said", arguments: presets)
    func shakes(settings: ShakeDetectorTuning) throws {
        var total = 0
        for rate in [10.0, 25, 50, 100, 200] {
            for frequency in [2.0, 3, 4, 6] {
                for amplitude in [1.0, 2, 3] {
                    // Rest, a shake, rest, a longer shake that outlasts the cooldown, rest.
                    var motion = SyntheticMotion()
                    let first = SyntheticMotion.shake(amplitude: amplitude * g, frequency: frequency, from: 1, to: 1.6)
                    let second = SyntheticMotion.shake(amplitude: amplitude * g, frequency: frequency, from: 3, to: 6)
                    motion.motion = { t in
                        let a = first(t)
                        let b = second(t)
                        return (a.x + b.x, a.y + b.y, a.z + b.z)
                    }
                    total += try Self.checkQuietTime(motion.samples(rate: rate, to: 8), settings: settings).fired
                }
            }
        }
        #expect(total > 100, "the check saw shakes fire")
    }

    @Test("Random motion and gaps, seeded: never a shake before the quiet time", arguments: presets)
    func randomMotion(settings: ShakeDetectorTuning) throws {
        var generator = SplitMix64(seed: 0x9_17E7)
        var samples: [AccelSample] = []
        var time = 0.0
        for _ in 0..<60_000 {
            // Mostly 100 Hz, with jitter, repeated timestamps and the odd gap.
            let step = Double.random(in: 0..<1, using: &generator)
            time += step < 0.02 ? 0 : step < 0.03 ? 0.3 : Double.random(in: 0.005...0.02, using: &generator)
            let burst = Int(time / 2) % 3 == 0
            let scale = burst ? 3 * g : 0.2 * g
            samples.append(
                AccelSample(
                    timestamp: time, x: Double.random(in: -scale...scale, using: &generator),
                    y: Double.random(in: -scale...scale, using: &generator),
                    z: g + Double.random(in: -scale...scale, using: &generator)))
        }
        let (fired, _) = try Self.checkQuietTime(samples, settings: settings)
        #expect(fired > 10, "the check saw shakes fire")
    }

    @Test("At rest the quiet time is the shortest shake the settings detect", arguments: presets)
    func atRest(settings: ShakeDetectorTuning) throws {
        let still = SyntheticMotion().samples(rate: 100, to: 2)
        let (_, quiet) = try Self.checkQuietTime(still, settings: settings)
        let shortest = min(
            settings.activeFraction * settings.window, settings.sustainedActiveFraction * settings.sustainedWindow)
        #expect(abs(quiet - shortest) < 1e-5, "\(quiet) against \(shortest)")
    }

    @Test("Before any sample, and in a cooldown, the quiet time says so")
    func beforeAnySampleAndInACooldown() throws {
        var detector = ShakeDetector(sensitivity: .medium)
        #expect(detector.firesNoSoonerThan == -.infinity)
        var motion = SyntheticMotion()
        motion.motion = SyntheticMotion.shake(amplitude: 2 * g, frequency: 4, from: 0.5, to: 3)
        var firstShake: ShakeEvent?
        for sample in motion.samples(rate: 100, to: 3) where firstShake == nil {
            firstShake = detector.process(sample)
        }
        let fired = try #require(firstShake)
        #expect(detector.firesNoSoonerThan == fired.timestamp + ShakeDetectorTuning.medium.cooldown)
    }
}

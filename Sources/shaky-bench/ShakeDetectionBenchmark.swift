import Foundation
import ShakeDetection
import ShakyCore

extension Benchmark {
    /// The detector's speed on one core.
    static let shakeDetection = Benchmark(
        name: "detector",
        summary: """
            ShakeDetector.process speed: ns per sample and million samples per second over --samples N synthetic \
            samples (default 50000000) at 100 Hz: rest, walking-like bumps and shakes in turn; target ≥ 20 M/s.
            """,
        run: runShakeDetectionBenchmark)
}

/// One minute at 100 Hz: 20 s at rest with sensor noise, 20 s of walking-like bumps, then 20 s of shakes (2 s of
/// 4 Hz ±2 g every 5 s). Pseudo-random but the same on every run.
private func syntheticMinute() -> [AccelSample] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func noise() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(Int64(bitPattern: state >> 11) % 1000) / 1000 * 0.2
    }
    let gravity = AccelSample.standardGravity
    return (0..<6000).map { index in
        let time = Double(index) / 100
        var x = noise()
        var y = noise()
        var z = gravity + noise()
        if time >= 20 && time < 40 {
            z += 4 * max(0, sin(2 * Double.pi * 2 * time))  // heel strikes, twice a second
            y += 1.5 * sin(2 * Double.pi * time)
        } else if time >= 40, (time - 40).truncatingRemainder(dividingBy: 5) < 2 {
            x += 2 * gravity * sin(2 * Double.pi * 4 * time)
        }
        return AccelSample(timestamp: time, x: x, y: y, z: z)
    }
}

private func runShakeDetectionBenchmark(_ arguments: BenchmarkArguments) async throws {
    let total = try arguments.int("--samples", default: 50_000_000)
    let minute = syntheticMinute()
    var detector = ShakeDetector(sensitivity: .medium)
    var triggers = 0
    var processed = 0
    var pass = 0.0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        while processed < total {
            let shift = pass * 60
            for sample in minute.prefix(total - processed) {
                var shifted = sample
                shifted.timestamp += shift
                if detector.process(shifted) != nil { triggers += 1 }
            }
            processed += min(minute.count, total - processed)
            pass += 1
        }
    }
    let (whole, attoseconds) = elapsed.components
    let seconds = Double(whole) + Double(attoseconds) / 1e18
    print(
        String(
            format: "%d samples in %.2f s: %.2f ns/sample, %.1f M samples/s on one core (target ≥ 20 M/s); %d triggers",
            processed, seconds, seconds * 1e9 / Double(processed), Double(processed) / seconds / 1e6, triggers))
}

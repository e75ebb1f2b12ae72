import Foundation
import ShakeDetection
import ShakyCore

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the shake detector's throughput on one core and prints ns/sample and million samples/s.
///
/// The input is a precomputed 100 Hz stream (rest, walking-like bumps and shakes) replayed `sampleCount` times
/// in total through one detector with the medium preset, so the figure is the detector's cost alone. The rate is
/// computed from the thread's CPU time, so other processes sharing the core do not distort it; wall time is shown too.
func benchmarkShakeDetection(sampleCount: Int = 50_000_000) {
    let g = AccelSample.standardGravity
    let period = 10_000
    let pattern = (0..<period).map { index -> AccelSample in
        let t = Double(index) / 100
        let phase = t.truncatingRemainder(dividingBy: 20)
        let shake = phase >= 15 && phase < 17 ? 3 * g * sin(2 * Double.pi * 4 * t) : 0
        let bump = phase.truncatingRemainder(dividingBy: 0.55) < 0.03 ? 2 * g : 0
        return AccelSample(timestamp: t, x: shake + 0.1 * sin(31 * t), y: 0.1 * cos(17 * t), z: g + bump)
    }
    let span = Double(period) / 100
    var detector = ShakeDetector(sensitivity: .medium)
    var triggers = 0
    let clock = ContinuousClock()
    let cpuStart = threadCPUSeconds()
    let elapsed = clock.measure {
        var processed = 0
        var offset = 0.0
        while processed < sampleCount {
            for var sample in pattern {
                sample.timestamp += offset
                if detector.process(sample) != nil { triggers += 1 }
            }
            processed += period
            offset += span
        }
    }
    let seconds = threadCPUSeconds() - cpuStart
    let wallSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let nanosecondsPerSample = seconds * 1e9 / Double(sampleCount)
    let millionsPerSecond = Double(sampleCount) / seconds / 1e6
    print(
        "shake detection: \(sampleCount) samples in \(String(format: "%.3f", seconds)) s CPU "
            + "(\(String(format: "%.3f", wallSeconds)) s wall): "
            + "\(String(format: "%.2f", nanosecondsPerSample)) ns/sample, "
            + "\(String(format: "%.1f", millionsPerSecond)) M samples/s (\(triggers) triggers)")
}

/// CPU time consumed by the calling thread, seconds.
private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

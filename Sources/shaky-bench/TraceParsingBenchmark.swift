import Foundation
import ShakeDetection
import ShakyCore
import ShakyDrivers

extension Benchmark {
    /// How fast a trace file is read back, and replayed through the detector as `shakyd detect` does.
    static let traceParsing = Benchmark(
        name: "trace",
        summary: """
            TraceReader speed: million samples per second on one core over a --trace-samples N line trace \
            (default 5000000) written like a 100 Hz recording, reading only and reading with the shake detector \
            (as shakyd detect does); wall clock and the thread's own CPU time; target ≥ 5 M/s.
            """,
        run: runTraceParsingBenchmark)
}

private func runTraceParsingBenchmark(_ arguments: BenchmarkArguments) async throws {
    let count = try arguments.int("--trace-samples", default: 5_000_000)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-bench-\(UUID().uuidString).csv")
        .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writer = try TraceWriter(path: path, metadata: TraceMetadata([(key: "rate", value: "100")]))
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func reading(_ around: Double) -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return around + Double(Int64(bitPattern: state >> 11) % 2000 - 1000) / 1000  // three decimals
    }
    for index in 0..<count {
        try writer.write(
            AccelSample(timestamp: Double(index) / 100, x: reading(0), y: reading(0), z: reading(9.81)))
    }
    try writer.close()
    for detecting in [false, true] {
        let reader = try TraceReader(path: path)
        var detector = ShakeDetector(sensitivity: .medium)
        var read = 0
        var sum = 0.0
        var triggers = 0
        let cpuBefore = threadCPUSeconds()
        let elapsed = try ContinuousClock().measure {
            while let sample = try reader.next() {
                read += 1
                sum += sample.x
                if detecting && detector.process(sample) != nil { triggers += 1 }
            }
        }
        let cpu = threadCPUSeconds() - cpuBefore
        let (whole, attoseconds) = elapsed.components
        let seconds = Double(whole) + Double(attoseconds) / 1e18
        let figures = String(
            format:
                "%d samples in %.2f s: %.1f ns/sample, %.1f M samples/s; CPU %.2f s: %.1f ns/sample, %.1f M samples/s",
            read, seconds, seconds * 1e9 / Double(read), Double(read) / seconds / 1e6, cpu, cpu * 1e9 / Double(read),
            Double(read) / cpu / 1e6)
        let what = detecting ? "reading and detecting (shakyd detect), \(triggers) triggers" : "reading"
        print("\(what): \(figures) on one core (target ≥ 5 M/s)\(sum.isNaN ? " (NaN)" : "")")
    }
}

/// The calling thread's own CPU time, seconds: on a loaded machine, what the work cost apart from waiting its turn.
private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

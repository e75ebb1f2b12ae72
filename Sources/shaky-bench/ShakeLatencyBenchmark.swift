import Foundation
import ShakeDetection
import ShakyCore
import ShakyDaemon
import ShakyProtocol
import Synchronization

extension Benchmark {
    /// Time from the accelerometer sample that completes a shake to the hint event at a watcher.
    static let shakeLatency = Benchmark(
        name: "shake-latency",
        summary: """
            Shake sample → Watch event: samples of a 4 Hz ±2 g shake go through ShakeDetector.process and \
            runtime.shake() as the sensor pipeline does; time from handing over the sample that fires to the hint \
            event read by a socket watcher; p50/p99 over --shakes N (default 300), target ≤ 2 ms p99.
            """,
        run: runShakeLatencyBenchmark)
}

/// A cold detector's input for one shake at 100 Hz: half a second at rest, then shaking along x.
private func shakeSamples() -> [AccelSample] {
    (0..<150).map { index in
        let time = Double(index) / 100
        let shaking = time >= 0.5
        let x = shaking ? 2 * AccelSample.standardGravity * sin(2 * Double.pi * 4 * (time - 0.5)) : 0
        return AccelSample(timestamp: time, x: x, y: 0, z: AccelSample.standardGravity)
    }
}

private func runShakeLatencyBenchmark(_ arguments: BenchmarkArguments) async throws {
    let shakes = try arguments.int("--shakes", default: 300)
    let samples = shakeSamples()
    try await DaemonBenchmark.run(questions: 40) { bench in
        let host = try await bench.connect()
        try await bench.newGame(
            client: host, questions: 40, rules: .init(indicationTime: 3600, maximumHints: 40, hintCooldown: 0))
        var status = try await bench.game("Next", on: host)

        let collector = ArrivalCollector()
        let watcher = try await bench.connect()
        let ready = SharedCount()
        let replies = watcher.callMore("io.shakywords.Game.Watch")
        let reader = Task {
            for try await reply in replies {
                let arrival = ContinuousClock.now
                guard let event = reply["event"]?.objectValue else { continue }
                if event["kind"]?.stringValue == "hint", let used = event["hintsUsed"]?.intValue,
                    event["source"]?.stringValue == "shake"
                {
                    collector.arrived(tag: "hint \(used)", at: arrival)
                } else if event["kind"]?.stringValue == "state" {
                    ready.increment()
                }
            }
        }
        while ready.value == 0 { try await Task.sleep(for: .milliseconds(1)) }

        let runtime = bench.daemon.runtime
        var latencies: [Duration] = []
        for index in 0..<(shakes + 10) {
            if status.hintsLeft == 0 {
                try await bench.game("Skip", on: host)
                status = try await bench.game("Next", on: host)
            }
            let expected = "hint \(status.hintsUsed + 1)"
            let fed = Mutex<ContinuousClock.Instant?>(nil)
            let arrival = await collector.waitForAll(1, tag: expected) {
                var detector = ShakeDetector(sensitivity: .medium)
                for sample in samples {
                    let handedOver = ContinuousClock.now
                    if detector.process(sample) != nil {
                        fed.withLock { $0 = handedOver }
                        await runtime.shake()
                        break
                    }
                }
            }
            guard let start = fed.withLock({ $0 }) else { throw BenchmarkError("the synthetic shake never fired") }
            if index >= 10 { latencies.append(start.duration(to: arrival)) }
            status = try await bench.game("Status", on: host)
        }
        let summary = DurationSummary(latencies)
        print(
            "shake sample → hint event at a watcher over \(shakes) shakes: p50 "
                + "\(DurationSummary.milliseconds(summary.percentile(0.5))), p99 "
                + "\(DurationSummary.milliseconds(summary.percentile(0.99))), max "
                + "\(DurationSummary.milliseconds(summary.sorted.last ?? .zero)) (target ≤ 2 ms p99)")
        await watcher.close()
        _ = try? await reader.value
        await host.close()
    }
}

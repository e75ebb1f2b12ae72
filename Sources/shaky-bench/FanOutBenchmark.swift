import ShakyDaemon
import ShakyProtocol
import Synchronization
import Varlink

extension Benchmark {
    /// Time from the runtime broadcasting an event to the last of N watchers receiving it.
    static let fanOut = Benchmark(
        name: "fanout",
        summary: """
            Fan-out latency: an AdjustScore is broadcast by the runtime (the instant an in-process watcher of the \
            runtime is handed the event) until the last of N socket watchers (N = 1, 10, 100, 200) has received it; \
            p50/p99 over --events E per N (default 200).
            """,
        run: runFanOutBenchmark)
}

/// When the runtime handed the latest probe event to its in-process watcher.
private final class BroadcastStamp: Sendable {
    private let instants = Mutex<[String: ContinuousClock.Instant]>([:])

    func record(_ tag: String) {
        let now = ContinuousClock.now
        instants.withLock { $0[tag] = now }
    }

    func take(_ tag: String) -> ContinuousClock.Instant? {
        instants.withLock { $0.removeValue(forKey: tag) }
    }
}

private func runFanOutBenchmark(_ arguments: BenchmarkArguments) async throws {
    let events = try arguments.int("--events", default: 200)
    for watcherCount in [1, 10, 100, 200] {
        try await DaemonBenchmark.run(questions: 1) { bench in
            let host = try await bench.connect()
            try await bench.newGame(client: host, questions: 1)

            // The broadcast instant: a sink registered on the watcher hub itself, called in the broadcast loop.
            let stamp = BroadcastStamp()
            await bench.daemon.watchers.add(to: bench.daemon.runtime) { reply in
                if let event = reply.parameters["event"]?.objectValue, let reason = event["reason"]?.stringValue {
                    stamp.record(reason)
                }
                return true
            }

            let collector = ArrivalCollector()
            var watchers: [VarlinkClient] = []
            var readers: [Task<Void, any Error>] = []
            let ready = SharedCount()
            for _ in 0..<watcherCount {
                let client = try await bench.connect()
                watchers.append(client)
                let replies = client.callMore("io.shakywords.Game.Watch")
                readers.append(
                    Task {
                        for try await reply in replies {
                            let arrival = ContinuousClock.now
                            guard let event = reply["event"]?.objectValue else { continue }
                            if let reason = event["reason"]?.stringValue {
                                collector.arrived(tag: reason, at: arrival)
                            } else if event["kind"]?.stringValue == "state" {
                                ready.increment()
                            }
                        }
                    })
            }
            while ready.value < watcherCount { try await Task.sleep(for: .milliseconds(1)) }

            var latencies: [Duration] = []
            for index in 0..<(events + 10) {
                let tag = "probe \(index)"
                let last = try await collector.waitForAll(watcherCount, tag: tag) {
                    _ = try await host.call(
                        "io.shakywords.Game.AdjustScore",
                        ShakyAPI.GameInterface.AdjustScoreParameters(team: "Owls", delta: 1, reason: tag),
                        as: ShakyAPI.GameInterface.StatusReply.self)
                }
                guard let broadcast = stamp.take(tag) else {
                    throw BenchmarkError("the runtime never broadcast \(tag)")
                }
                if index >= 10 { latencies.append(broadcast.duration(to: last)) }  // the first ten warm up
            }
            let summary = DurationSummary(latencies)
            print(
                "\(watcherCount) watcher\(watcherCount == 1 ? "" : "s"): broadcast → last watcher p50 "
                    + "\(DurationSummary.milliseconds(summary.percentile(0.5))), p99 "
                    + "\(DurationSummary.milliseconds(summary.percentile(0.99))), max "
                    + "\(DurationSummary.milliseconds(summary.sorted.last ?? .zero))")
            for client in watchers { await client.close() }
            for reader in readers { _ = try? await reader.value }
            await host.close()
        }
    }
}

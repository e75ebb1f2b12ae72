import ShakyProtocol
import Varlink

extension Benchmark {
    /// Calls per second over the socket.
    static let callRate = Benchmark(
        name: "calls",
        summary: """
            Calls per second over the Unix socket to an in-process daemon: Status (read-only) and AdjustScore \
            (saved and broadcast), from one client one call at a time, one client with 16 calls pipelined, and \
            --clients N clients (default 8) with 16 pipelined each; --seconds S per case (default 2).
            """,
        run: runCallRateBenchmark)
}

private func runCallRateBenchmark(_ arguments: BenchmarkArguments) async throws {
    let seconds = try arguments.double("--seconds", default: 2)
    let clients = try arguments.int("--clients", default: 8)
    try await DaemonBenchmark.run { bench in
        let host = try await bench.connect()
        let cases: [(String, ShakyAPI.GameInterface.AdjustScoreParameters?)] = [
            ("Status", nil),
            ("AdjustScore", ShakyAPI.GameInterface.AdjustScoreParameters(team: "Owls", delta: 1, reason: "bench")),
        ]
        for (method, adjustment) in cases {
            for (connections, inFlight) in [(1, 1), (1, 16), (clients, 16)] {
                // Each case from a new game: every AdjustScore adds to the team's adjustments, which each save writes
                // whole, so a case run after another would start from a larger game.
                try await bench.newGame(client: host)
                try await bench.game("Next", on: host)
                let rate = try await measureCallRate(
                    bench, method: method, adjustment: adjustment, connections: connections, inFlight: inFlight,
                    seconds: seconds)
                print(
                    "\(method): \(connections) client\(connections == 1 ? "" : "s") × \(inFlight) in flight: "
                        + "\(Int(rate)) calls/s")
            }
        }
        await host.close()
    }
}

/// Runs `inFlight` loops of calls on each of `connections` connections for `seconds`; returns answered calls per
/// second.
private func measureCallRate(
    _ bench: DaemonBenchmark, method: String, adjustment: ShakyAPI.GameInterface.AdjustScoreParameters?,
    connections: Int,
    inFlight: Int, seconds: Double
) async throws -> Double {
    var clients: [VarlinkClient] = []
    for _ in 0..<connections { clients.append(try await bench.connect()) }
    let answered = SharedCount()
    let failed = SharedCount()
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .seconds(seconds)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients {
            for _ in 0..<inFlight {
                group.addTask {
                    while clock.now < deadline {
                        do {
                            if let adjustment {
                                _ = try await client.call(
                                    "io.shakywords.Game.AdjustScore", adjustment,
                                    as: ShakyAPI.GameInterface.StatusReply.self)
                            } else {
                                _ = try await client.call(
                                    "io.shakywords.Game.Status", VarlinkEmptyParameters(),
                                    as: ShakyAPI.GameInterface.StatusReply.self)
                            }
                            answered.increment()
                        } catch VarlinkError.remote {
                            failed.increment()
                        }
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = start.duration(to: clock.now)
    for client in clients { await client.close() }
    if failed.value > 0 {
        throw BenchmarkError("\(failed.value) \(method) calls were refused")
    }
    let (whole, attoseconds) = elapsed.components
    return Double(answered.value) / (Double(whole) + Double(attoseconds) / 1e18)
}

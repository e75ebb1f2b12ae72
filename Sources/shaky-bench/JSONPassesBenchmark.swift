import Foundation
import ShakyProtocol
import Varlink

extension Benchmark {
    /// The JSON work of one call, in process: the passes the server made before, and the ones it makes now.
    static let jsonPasses = Benchmark(
        name: "json",
        summary: """
            The JSON work of one AdjustScore call in process, without sockets: parameters decoded from the parsed \
            call and the reply (a game mid-round) encoded to bytes, the way the server did it before (tree → \
            bytes → JSONDecoder; JSONEncoder → Data → tree → bytes) and the way it does it now (decoded from the \
            tree; written once, straight to bytes); --iterations N each (default 20000).
            """,
        run: runJSONPassesBenchmark)
}

private func runJSONPassesBenchmark(_ arguments: BenchmarkArguments) async throws {
    let iterations = try arguments.int("--iterations", default: 20_000)
    let reply = try await DaemonBenchmark.run { bench in
        let host = try await bench.connect()
        try await bench.newGame(client: host)
        try await bench.game("Next", on: host)
        let reply = try await host.call(
            "io.shakywords.Game.Status", VarlinkEmptyParameters(), as: ShakyAPI.GameInterface.StatusReply.self)
        await host.close()
        return reply
    }
    let call = try VarlinkCall(
        frame: Array(
            #"{"method":"io.shakywords.Game.AdjustScore","parameters":{"team":"Owls","delta":1,"reason":"bench"}}"#
                .utf8))
    let replyBytes = VarlinkEncodedReply(parameters: try VarlinkEncodedParameters(encoding: reply)).messageBytes
    print("reply: \(replyBytes.count) bytes")

    let before = try measure(iterations: iterations) {
        // Before: the parsed parameters written back to text and parsed again by JSONDecoder …
        let text = JSONValue.object(call.parameters).serializedBytes()
        let parameters = try JSONDecoder().decode(
            ShakyAPI.GameInterface.AdjustScoreParameters.self, from: Data(text))
        // … and the reply through JSONEncoder, parsed into a tree, and that tree written to bytes.
        let encoded = try JSONEncoder().encode(reply)
        guard case .object(let tree) = try JSONValue(parsing: Array(encoded)) else { throw BenchmarkError("no object") }
        let message = VarlinkReply(parameters: tree).jsonValue.serializedBytes()
        return parameters.delta + message.count
    }
    let after = try measure(iterations: iterations) {
        let parameters = try JSONValueDecoder().decode(
            ShakyAPI.GameInterface.AdjustScoreParameters.self, from: .object(call.parameters))
        let message = VarlinkEncodedReply(parameters: try VarlinkEncodedParameters(encoding: reply)).messageBytes
        return parameters.delta + message.count
    }
    print("before (6 passes): \(format(before)) per call")
    print(
        "now (decode from the tree, one write): \(format(after)) per call, \(String(format: "%.1f", before / after))× faster"
    )
}

/// Seconds per iteration of `body`.
private func measure(iterations: Int, _ body: () throws -> Int) throws -> Double {
    var sink = 0
    for _ in 0..<min(iterations / 10, 1000) { sink &+= try body() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { sink &+= try body() }
    let (seconds, attoseconds) = start.duration(to: clock.now).components
    if sink == 42 { print("") }
    return (Double(seconds) + Double(attoseconds) / 1e18) / Double(iterations)
}

private func format(_ seconds: Double) -> String {
    String(format: "%.1f µs", seconds * 1e6)
}

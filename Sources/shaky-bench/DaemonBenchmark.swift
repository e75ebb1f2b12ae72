import Foundation
import Logging
import ShakyDaemon
import ShakyProtocol
import Synchronization
import Varlink

/// An in-process daemon (the same `Daemon` as `shakyd`, no sensor, no sound) serving a socket in a temporary
/// folder, for the benchmarks that call it over Varlink.
///
/// Client and daemon share the process and NIO's event loops, as a local client and daemon share the machine.
struct DaemonBenchmark: Sendable {
    /// The daemon.
    let daemon: Daemon
    /// Its Varlink socket.
    let socketPath: String

    /// One question with a long answer, so a round takes many hints.
    static let question = ShakyAPI.Question(
        text: "The longest word the benchmark knows", answer: "extraordinarily", difficulty: .hard)

    /// Starts a daemon with a pack `Bench` of `questions` copies of ``question``, runs `body`, then stops it and
    /// removes its files.
    static func run<Result: Sendable>(
        questions: Int = 40, _ body: (DaemonBenchmark) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shaky-bench-daemon-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var logger = Logger(label: "shaky.bench.daemon")
        logger.logLevel = .warning
        let socketPath = folder.appendingPathComponent("shaky.sock").path
        let configuration = DaemonConfiguration(
            resolving: DaemonOptions(
                socket: socketPath, stateDirectory: folder.appendingPathComponent("state").path, input: "none",
                soundDevice: "none"))
        let daemon = try await Daemon.start(configuration: configuration, logger: logger)
        let server = try await VarlinkServer.bind(
            to: .unixSocket(path: socketPath), service: daemon.service, socketGroup: nil, logger: logger)
        let serving = Task { try await server.run() }
        let bench = DaemonBenchmark(daemon: daemon, socketPath: socketPath)
        do {
            let client = try await bench.connect()
            _ = try await client.call(
                "io.shakywords.Packs.Create", ShakyAPI.PacksInterface.ShowParameters(name: "Bench"),
                as: ShakyAPI.PacksInterface.CreateReply.self)
            for index in 0..<questions {
                var question = question
                question.text += " (\(index + 1))"
                _ = try await client.call(
                    "io.shakywords.Packs.AddQuestion",
                    ShakyAPI.PacksInterface.AddQuestionParameters(pack: "Bench", question: question),
                    as: ShakyAPI.PacksInterface.AddQuestionReply.self)
            }
            await client.close()
            let result = try await body(bench)
            serving.cancel()
            _ = try? await serving.value
            await daemon.shutDown()
            return result
        } catch {
            serving.cancel()
            await daemon.shutDown()
            throw error
        }
    }

    /// A new connection to the daemon.
    func connect() async throws -> VarlinkClient {
        try await VarlinkClient.connect(unixSocketPath: socketPath)
    }

    /// Starts a new game of the `Bench` pack (replacing any), with rules that let hints and score changes go on.
    func newGame(
        client: VarlinkClient, questions: Int = 40, rules: ShakyAPI.Rules = .init(indicationTime: 3600)
    ) async throws {
        _ = try await client.call(
            "io.shakywords.Game.New",
            ShakyAPI.GameInterface.NewParameters(
                teams: ["Owls", "Foxes"], packs: ["Bench"], questions: questions, seed: 1, rules: rules, replace: true),
            as: ShakyAPI.GameInterface.StatusReply.self)
    }

    /// Calls a Game method without parameters and returns the game after it.
    @discardableResult
    func game(_ method: String, on client: VarlinkClient) async throws -> ShakyAPI.State {
        try await client.call(
            "io.shakywords.Game.\(method)", VarlinkEmptyParameters(), as: ShakyAPI.GameInterface.StatusReply.self
        ).status
    }
}

/// Collects the arrivals of one event at many watchers and wakes whoever waits for the last.
final class ArrivalCollector: Sendable {
    private struct State {
        var expected = 0
        var tag = ""
        var arrived = 0
        var last: ContinuousClock.Instant?
        var waiter: CheckedContinuation<ContinuousClock.Instant, Never>?
    }
    private let state = Mutex(State())

    /// Expects `count` arrivals of the event tagged `tag`; returns the instant of the last one.
    func waitForAll(
        _ count: Int, tag: String, after trigger: () async throws -> Void
    ) async rethrows
        -> ContinuousClock.Instant
    {
        state.withLock { state in
            state = State(expected: count, tag: tag)
        }
        try await trigger()
        return await withCheckedContinuation { continuation in
            let done = state.withLock { state -> ContinuousClock.Instant? in
                if state.arrived >= state.expected { return state.last }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Notes that one watcher received the event tagged `tag`.
    func arrived(tag: String, at instant: ContinuousClock.Instant) {
        let waiter = state.withLock {
            state -> (CheckedContinuation<ContinuousClock.Instant, Never>, ContinuousClock.Instant)? in
            guard tag == state.tag else { return nil }
            state.arrived += 1
            state.last = max(state.last ?? instant, instant)
            guard state.arrived >= state.expected, let waiter = state.waiter, let last = state.last else { return nil }
            state.waiter = nil
            return (waiter, last)
        }
        if let (waiter, last) = waiter { waiter.resume(returning: last) }
    }
}

/// A counter shared between tasks.
final class SharedCount: Sendable {
    private let count = Atomic<Int>(0)

    /// The count now.
    var value: Int { count.load(ordering: .relaxed) }

    /// Adds one.
    func increment() { count.add(1, ordering: .relaxed) }
}

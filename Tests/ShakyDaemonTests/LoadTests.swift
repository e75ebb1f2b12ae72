import Foundation
import ShakyProtocol
import ShakyTesting
import Synchronization
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// The real `shakyd` under load: 200 watchers on their own connections, one watcher that never reads, and a client
/// flooding calls while a round's countdown runs.
///
/// The test runs in two parts, one round throughout:
/// 1. **Overflow:** a watcher that sends `Watch` and never reads, ten well-behaved watchers, and a flood of
///    AdjustScore calls (each one an event for every watcher) until the daemon drops the stalled watcher. The ten
///    must get every event and every tick meanwhile. (It takes several hundred events to fill the stalled watcher's
///    socket and then 256 more waiting unwritten in NIO; sent to 200 watchers that is over 100 000 messages, which a
///    debug build on a shared machine takes far too long to deliver, so the other 190 attach after the drop.)
/// 2. **Flood with 200 watchers:** 190 more watchers attach (the stalled connection was closed by the daemon) and a client floods
///    Status and Hint calls with an AdjustScore now and then, while ticks are measured.
///
/// What is measured, on the test's monotonic clock:
/// - **spread**: for each tick, the time between its arrival at the first and at the last of the watchers;
/// - **delay**: for each tick at each watcher, `arrival + remaining` (the tick's exact time left) is the countdown's
///   deadline plus the delivery time, so its excess over the smallest such value of the part is how much later than
///   the fastest delivery the tick came (the daemon's timer lateness cancels out).
@Suite("shakyd under load: 200 watchers, a stalled watcher and a flood of calls", .serialized, .tags(.heavy))
struct LoadTests {
    static let watcherCount = 200
    static let earlyWatcherCount = 10
    static let teams = ["Owls", "Foxes"]

    @Test("ticks reach 200 watchers together, a watcher that stops reading is dropped, memory stays bounded")
    func watchersUnderFlood() async throws {
        let log = TickArrivals()
        // What the daemon's run measured, read once it has stopped.
        let measured = try await DaemonProcess.withRunning { daemon in
            let host = DaemonProcess.GameClient(try await daemon.connect())
            try await host.createPack(
                "Load",
                questions: [ShakyAPI.Question(text: "A tall tower for ships", answer: "lighthouse", difficulty: .easy)])
            _ = try await host.new(
                ShakyAPI.GameInterface.NewParameters(
                    teams: Self.teams, packs: ["Load"], questions: 1, seed: 1,
                    rules: ShakyAPI.Rules(indicationTime: 120, maximumHints: 40, hintCooldown: 0)))
            _ = try await host.next()  // the round runs from now on, ticking every second
            let clock = ContinuousClock()
            let watching = WatcherGroup()
            try await watching.attach(Self.earlyWatcherCount, to: daemon, log: log)
            try await log.waitUntilSawState(Self.earlyWatcherCount, within: .seconds(30))
            // A client that asks to Watch and then never reads: the daemon must drop it rather than wait for it.
            let stalled = try RawSocket(path: daemon.socketPath)
            #expect(await stalled.send(#"{"method":"io.shakywords.Game.Watch","more":true}"#))
            let memoryAtStart = try daemon.residentMemoryKiB()
            var peakMemory = memoryAtStart

            // 1. Overflow the stalled watcher.
            let overflowing = Task { try await Self.flood(daemon, mix: .scoresOnly) }
            let dropDeadline = clock.now + .seconds(20)
            var dropped = false
            while !dropped, clock.now < dropDeadline {
                peakMemory = max(peakMemory, try daemon.residentMemoryKiB())
                dropped = daemon.log().contains("dropped a watcher that stopped reading")
                try await Task.sleep(for: .milliseconds(20))
            }
            overflowing.cancel()
            let scoreChanges = try await overflowing.value
            #expect(dropped, "the watcher that stopped reading was not dropped within 20 s")
            // Reading now drains what the daemon had sent, then meets the end of the connection.
            if case .failure(let end) = await stalled.readUntilClosed() {
                Issue.record("the dropped watcher's connection stayed open: \(end.end)")
            }
            let ticksWhileOverflowing = log.tickCount
            #expect(ticksWhileOverflowing >= 1, "no tick came while the stalled watcher overflowed")
            // Every well-behaved watcher got every score change (the flood's last reply may still be on its way).
            try await log.waitUntilScoreEvents(scoreChanges, within: .seconds(10))

            // 2. 200 watchers and a flood of calls.
            try await watching.attach(Self.watcherCount - Self.earlyWatcherCount, to: daemon, log: log)
            try await log.waitUntilSawState(Self.watcherCount, within: .seconds(30))
            log.startPhase(2)
            let ticksBefore = log.tickCount
            let flooding = Task { try await Self.flood(daemon, mix: .mostlyReads) }
            let floodDeadline = clock.now + .seconds(15)
            while log.tickCount < ticksBefore + 8, clock.now < floodDeadline {
                peakMemory = max(peakMemory, try daemon.residentMemoryKiB())
                try await Task.sleep(for: .milliseconds(50))
            }
            flooding.cancel()
            let calls = try await flooding.value
            try await log.waitUntilNewestTickIsEverywhere(within: .seconds(5))
            peakMemory = max(peakMemory, try daemon.residentMemoryKiB())
            let memoryAtEnd = try daemon.residentMemoryKiB()
            _ = try await host.status()  // the daemon still answers
            await watching.closeAll()
            stalled.hangUp()
            return (scoreChanges, calls, memoryAtStart, peakMemory, memoryAtEnd)
        }
        let (scoreChanges, calls, memoryAtStart, peakMemory, memoryAtEnd) = measured

        let overflowTicks = log.ticks(phase: 1, watchers: Self.earlyWatcherCount)
        let floodTicks = log.ticks(phase: 2, watchers: Self.watcherCount)
        let report = """
            overflow: \(scoreChanges) AdjustScore calls, \(overflowTicks.count) ticks at \(Self.earlyWatcherCount) \
            watchers; \(Self.describe(overflowTicks))
            flood: \(calls) calls (Status, Hint, AdjustScore 1 in 50), \(floodTicks.count) ticks at \
            \(Self.watcherCount) watchers; \(Self.describe(floodTicks))
            events read by all watchers: \(log.eventCount)
            VmRSS: \(memoryAtStart) KiB at start, \(peakMemory) KiB peak, \(memoryAtEnd) KiB at the end
            """
        print(report)
        #expect(log.missingTicks(phase: 1, watchers: Self.earlyWatcherCount).isEmpty, "\(report)")
        #expect(log.missingTicks(phase: 2, watchers: Self.watcherCount).isEmpty, "\(report)")
        #expect(floodTicks.count >= 7, "too few ticks under the flood:\n\(report)")
        let spreads = floodTicks.map(\.spread).sorted()
        let delays = floodTicks.flatMap(\.delays).sorted()
        // Typically within 50 ms of each other; never held up for long. (Two cores shared with other work give
        // the odd tick a scheduling delay of a hundred milliseconds or so; a stall is seconds or a missing tick.)
        #expect(Self.percentile(spreads, 0.5) < 0.050, "ticks too far apart across watchers:\n\(report)")
        #expect(Self.percentile(spreads, 0.99) < 0.300, "ticks too far apart across watchers:\n\(report)")
        #expect(Self.percentile(delays, 0.99) < 0.300, "ticks delivered late:\n\(report)")
        // While every call is an event the ticks queue behind score events, but a watcher that stops reading must
        // not hold the others up.
        #expect((overflowTicks.flatMap(\.delays).max() ?? 0) < 0.5, "ticks stalled during the overflow:\n\(report)")
        #expect(peakMemory - memoryAtStart < 32 * 1024, "the daemon's memory grew too much:\n\(report)")
    }

    static func describe(_ ticks: [TickArrivals.Tick]) -> String {
        let spreads = ticks.map(\.spread).sorted()
        let delays = ticks.flatMap(\.delays).sorted()
        return "spread across watchers p50 \(milliseconds(percentile(spreads, 0.5))), "
            + "p99 \(milliseconds(percentile(spreads, 0.99))); "
            + "delay beyond the fastest delivery p50 \(milliseconds(percentile(delays, 0.5))), "
            + "p99 \(milliseconds(percentile(delays, 0.99))), max \(milliseconds(delays.last ?? 0))"
    }

    /// What a flood calls.
    enum FloodMix {
        /// AdjustScore only: every call is an event for every watcher.
        case scoresOnly
        /// Status and Hint in turn, and AdjustScore every fiftieth call.
        case mostlyReads
    }

    /// Floods the daemon from one connection, four calls in flight, until cancelled; returns how many calls were
    /// answered without an error.
    private static func flood(_ daemon: DaemonProcess, mix: FloodMix) async throws -> Int {
        let client = try await daemon.connect()
        let game = DaemonProcess.GameClient(client)
        let answered = AcknowledgedCalls()
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    var turn = lane
                    while !Task.isCancelled {
                        turn += 4
                        let ok: Bool
                        switch mix == .scoresOnly || turn % 200 == lane ? 2 : turn % 8 < 4 ? 0 : 1 {
                        case 0: ok = (try? await game.status()) != nil
                        case 1: ok = (try? await game.hint()) != nil
                        default:
                            ok = (try? await game.adjustScore(team: teams[turn % 2], delta: 1, reason: "flood")) != nil
                        }
                        if ok { answered.increment() }
                    }
                }
            }
        }
        await client.close()
        return answered.value
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .infinity }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.1f ms", seconds * 1000)
    }
}

/// Well-behaved watchers, each on its own connection, reading every event as it comes.
private final class WatcherGroup: Sendable {
    private let state = Mutex<(clients: [VarlinkClient], readers: [Task<Void, Never>])>(([], []))

    /// Connects `count` more watchers and starts reading their events into `log`.
    func attach(_ count: Int, to daemon: DaemonProcess, log: TickArrivals) async throws {
        for _ in 0..<count {
            let client = try await daemon.connect()
            let replies = client.callMore("\(ShakyAPI.GameInterface.name).Watch")
            let index = state.withLock { $0.clients.count }
            let reader = Task { await Self.read(replies, watcher: index, into: log) }
            state.withLock {
                $0.clients.append(client)
                $0.readers.append(reader)
            }
        }
    }

    /// Hangs up every watcher and waits for their readers to end.
    func closeAll() async {
        let (clients, readers) = state.withLock { ($0.clients, $0.readers) }
        for client in clients { await client.close() }
        for reader in readers { await reader.value }
    }

    /// Reads one watcher's replies, noting when each tick arrives.
    private static func read(
        _ replies: AsyncThrowingStream<VarlinkObject, any Error>, watcher: Int, into log: TickArrivals
    ) async {
        do {
            for try await reply in replies {
                let arrival = ContinuousClock.now
                guard let event = reply["event"]?.objectValue, let kind = event["kind"]?.stringValue else { continue }
                switch kind {
                case "tick":
                    if let remaining = event["remaining"]?.doubleValue {
                        log.record(tick: remaining, at: arrival, watcher: watcher)
                    }
                case "state":
                    log.sawState(watcher: watcher)
                case "scoreAdjusted":
                    log.sawScoreChange(watcher: watcher)
                default:
                    log.countEvent()
                }
            }
        } catch {
            log.ended(watcher: watcher, error)
        }
    }
}

/// When each tick reached each watcher, and what else each watcher saw.
final class TickArrivals: Sendable {
    struct Tick {
        /// First to last arrival, seconds.
        var spread: Double
        /// Per watcher, seconds later than the fastest delivery of the part.
        var delays: [Double]
    }

    private struct State {
        /// Tick (whole seconds left, rounded up) → watcher → (arrival, exact remaining).
        var ticks: [Int: [Int: (arrival: ContinuousClock.Instant, remaining: Double)]] = [:]
        /// Tick → the part of the test in which its first arrival came.
        var phases: [Int: Int] = [:]
        var phase = 1
        var watchersWithState: Set<Int> = []
        var scoreChanges: [Int: Int] = [:]
        var failures: [Int: String] = [:]
        var events = 0
    }

    private let state = Mutex(State())
    private let origin = ContinuousClock.now

    func record(tick remaining: Double, at arrival: ContinuousClock.Instant, watcher: Int) {
        let key = Int(remaining.rounded(.up))
        state.withLock {
            $0.ticks[key, default: [:]][watcher] = (arrival, remaining)
            if $0.phases[key] == nil { $0.phases[key] = $0.phase }
            $0.events += 1
        }
    }

    /// Ticks first seen from now on belong to `phase`.
    func startPhase(_ phase: Int) {
        state.withLock { $0.phase = phase }
    }

    func sawState(watcher: Int) {
        state.withLock {
            $0.watchersWithState.insert(watcher)
            $0.events += 1
        }
    }

    func sawScoreChange(watcher: Int) {
        state.withLock {
            $0.scoreChanges[watcher, default: 0] += 1
            $0.events += 1
        }
    }

    func countEvent() {
        state.withLock { $0.events += 1 }
    }

    func ended(watcher: Int, _ error: any Error) {
        if case VarlinkError.connectionClosed = error { return }
        state.withLock { $0.failures[watcher] = "\(error)" }
    }

    var eventCount: Int { state.withLock { $0.events } }

    /// Ticks seen by at least one watcher.
    var tickCount: Int { state.withLock { $0.ticks.count } }

    private func waitUntil(
        within timeout: Duration, _ what: @autoclosure () -> String, _ condition: (State) -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !state.withLock({ condition($0) }) {
            let failures = state.withLock { $0.failures }
            guard failures.isEmpty else { throw DaemonProcess.Failure("watchers failed: \(failures)") }
            guard clock.now < deadline else { throw DaemonProcess.Failure("waited \(timeout) for \(what())") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func waitUntilSawState(_ count: Int, within timeout: Duration) async throws {
        try await waitUntil(within: timeout, "\(count) watchers to get their state") {
            $0.watchersWithState.count >= count
        }
    }

    /// Waits until every watcher attached so far has seen `count` score changes.
    func waitUntilScoreEvents(_ count: Int, within timeout: Duration) async throws {
        try await waitUntil(
            within: timeout, "every watcher to see \(count) score changes: \(state.withLock { $0.scoreChanges })"
        ) { state in
            state.watchersWithState.allSatisfy { state.scoreChanges[$0, default: 0] == count }
        }
    }

    /// Waits until the latest tick has reached every watcher attached so far.
    func waitUntilNewestTickIsEverywhere(within timeout: Duration) async throws {
        try await waitUntil(within: timeout, "the latest tick to reach every watcher") { state in
            guard let newest = state.ticks.keys.min() else { return true }
            return state.ticks[newest]?.count == state.watchersWithState.count
        }
    }

    /// Ticks of `phase` that did not reach all of the first `watchers` watchers.
    func missingTicks(phase: Int, watchers: Int) -> [Int] {
        state.withLock { state in
            state.ticks.filter { tick in
                state.phases[tick.key] == phase && (0..<watchers).contains { tick.value[$0] == nil }
            }.map(\.key).sorted()
        }
    }

    /// The ticks of `phase` at the first `watchers` watchers, with their spread and delays.
    func ticks(phase: Int, watchers: Int) -> [Tick] {
        let (ticks, phases) = state.withLock { ($0.ticks, $0.phases) }
        let arrivals = ticks.filter { phases[$0.key] == phase }.map { tick in
            tick.value.filter { $0.key < watchers }.values.map { (seconds($0.arrival), $0.remaining) }
        }
        let fastest = arrivals.flatMap { $0.map { $0.0 + $0.1 } }.min() ?? 0
        return arrivals.map { arrivals in
            let times = arrivals.map(\.0)
            return Tick(
                spread: (times.max() ?? 0) - (times.min() ?? 0), delays: arrivals.map { $0.0 + $0.1 - fastest })
        }
    }

    private func seconds(_ instant: ContinuousClock.Instant) -> Double {
        let (whole, attoseconds) = origin.duration(to: instant).components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// How many flooding calls were answered.
private final class AcknowledgedCalls: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
}

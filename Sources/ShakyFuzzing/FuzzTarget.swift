import Foundation
import ShakeDetection
import ShakyCore
import ShakyDaemon
import ShakyProtocol
import ShakyStore
import TriviaEngine
import Varlink

/// The parts of the daemon that read what clients and files send, each as a function of arbitrary bytes.
///
/// `shaky-fuzz TARGET` runs one under libFuzzer (built by `make fuzz`); the test suite replays the committed
/// corpus (`Tests/Fuzz/Corpus/TARGET`) through the same functions. A target returns normally for every input:
/// refusing it is fine, trapping is the bug.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Varlink frames (split at NUL) parsed, checked against the interfaces and answered by an in-process daemon
    /// (``InProcessDaemon``): every method's parameters decoded through to the engine and the store.
    case varlink
    /// A pack file imported, as CSV and as JSON.
    case packImport = "pack-import"
    /// A trace parsed line by line and, as the file reader does, a batch of plain lines at a time (the two must
    /// agree bit for bit), its samples fed to the shake detector at every sensitivity.
    case trace
    /// The daemon's YAML configuration file.
    case config
    /// A saved game as the database holds it: decoded and checked (``Game/inconsistency``) as a restart does, and,
    /// when the check passes, restored and played on with every move and read a runtime makes.
    case snapshot

    /// Runs the target on `data`.
    public func run(_ data: [UInt8]) {
        switch self {
        case .varlink: Self.varlink(data)
        case .packImport: Self.packImport(data)
        case .trace: Self.trace(data)
        case .config: Self.config(data)
        case .snapshot: Self.snapshot(data)
        }
    }

    // MARK: varlink

    /// How many inputs one daemon answers before a fresh one takes over: what the calls store (packs, finished
    /// games) would otherwise grow without bound over millions of inputs, and slow every later call down.
    static let inputsPerDaemon = 5_000

    private static let daemons = DaemonRotation()

    private static func varlink(_ data: [UInt8]) {
        let calls = data.split(separator: 0, maxSplits: 8, omittingEmptySubsequences: true).compactMap { frame in
            // A stream (Watch) would wait for events that never come; without `more` it is refused at once, after
            // its parameters are checked.
            (try? VarlinkCall(frame: frame)).map { call in
                var call = call
                call.more = false
                return call
            }
        }
        guard !calls.isEmpty else { return }
        let service = daemons.next().service
        waitFor {
            for call in calls {
                try? await service.handle(call, from: .currentProcess) { _ in }
            }
        }
    }

    // MARK: packs, traces, configuration

    private static let packs = mustSetUp { try AppDatabase.inMemory() }

    private static func packImport(_ data: [UInt8]) {
        // TSV reads as CSV; each format a pack is exported to is checked to import back (what the size rule keeps).
        for format in [PackFileFormat.csv, .json] {
            if let pack = try? packs.importPack(Data(data), format: format, name: "Fuzz \(format)") {
                for export in PackFileFormat.allCases {
                    guard let exported = try? packs.exportPack(named: pack.name, format: export) else { continue }
                    let copy = try? packs.importPack(exported, format: export, name: "Fuzz copy")
                    precondition(copy?.questionCount == pack.questionCount, "a \(export) export does not import back")
                    try? packs.deletePack(named: "Fuzz copy")
                }
                try? packs.deletePack(named: pack.name)
            }
        }
    }

    private static func trace(_ data: [UInt8]) {
        // The parser refuses times beyond ±2^32 s and values that are not finite, so every sample it gives goes
        // to the detector as it is.
        let samples = data.withUnsafeBufferPointer { bytes in
            let lineByLine = traceSamples(bytes, inBatches: false)
            // The batch path is the file reader's fast path: it must read exactly what the full rules read.
            let batched = traceSamples(bytes, inBatches: true)
            guard lineByLine.elementsEqual(batched, by: sameBits) else {
                fatalError(
                    "the batch parser read \(batched.count) samples where the line parser read \(lineByLine.count)")
            }
            return lineByLine
        }
        for sensitivity in ShakeSensitivity.allCases {
            var detector = ShakeDetector(sensitivity: sensitivity)
            for sample in samples { _ = detector.process(sample) }
        }
    }

    /// The samples of a trace up to its first refused line, read as `TraceReader` reads a file: runs of plain
    /// lines a batch at a time (`inBatches`), every other line by the full rules.
    private static func traceSamples(_ bytes: UnsafeBufferPointer<UInt8>, inBatches: Bool) -> [AccelSample] {
        var parser = TraceLineParser(file: "fuzz.csv")
        var samples: [AccelSample] = []
        let batch = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 64)
        defer { batch.deallocate() }
        var start = 0
        var number = 0
        while start < bytes.count {
            if inBatches {
                let (count, used) = parser.parseCommonLines(UnsafeBufferPointer(rebasing: bytes[start...]), into: batch)
                if count > 0 {
                    samples.append(contentsOf: batch[0..<count])
                    start += used
                    number += count
                    continue
                }
            }
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            do {
                if let sample = try parser.parse(
                    bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), number: number)
                {
                    samples.append(sample)
                }
            } catch {
                break
            }
            start = end + 1
        }
        return samples
    }

    private static func sameBits(_ one: AccelSample, _ other: AccelSample) -> Bool {
        one.timestamp.bitPattern == other.timestamp.bitPattern && one.x.bitPattern == other.x.bitPattern
            && one.y.bitPattern == other.y.bitPattern && one.z.bitPattern == other.z.bitPattern
    }

    private static func config(_ data: [UInt8]) {
        guard let settings = try? DaemonOptions.parse(String(decoding: data, as: UTF8.self), path: "fuzz.conf")
        else { return }
        _ = DaemonConfiguration(resolving: settings)
    }
}

extension FuzzTarget {
    private static func snapshot(_ data: [UInt8]) {
        guard var game = try? JSONDecoder().decode(Game.self, from: Data(data)), game.inconsistency == nil else {
            return
        }
        var now = Duration.seconds(1_000)
        game.restore(at: now)
        var rule = EarlyPressRule(lockout: game.settings.earlyPressLockout)
        let teams = game.teams.map(\.name)
        func read() {
            _ = game.status(at: now)
            _ = game.hintsLeft
            _ = game.remainingTime(at: now)
            _ = game.round?.scramble.display.pattern
            _ = try? JSONEncoder().encode(game)
        }
        func play(_ event: GameEvent) {
            _ = try? game.handle(event, at: now)
            read()
            now += .milliseconds(2_500)
        }
        read()
        for pass in 0..<3 {
            play(.resume)
            play(.hint(source: .shake))
            play(.overrule)
            for team in teams {
                play(.buzz(team: team))
                play(.answer(team: game.teamUp ?? team, text: pass == 1 ? game.round?.question.answer ?? "" : "no"))
            }
            _ = game.handlePresses(
                teams.map { TeamPress(team: $0, pressedAt: now - .seconds(1), kernelTime: now) }, rule: &rule, at: now)
            read()
            play(.overrule)
            for team in teams { play(.undoBuzz(team: team)) }
            play(.adjustScore(team: teams.first ?? "", delta: 5, reason: "fuzz"))
            play(.pause)
            now += .seconds(70)
            play(.resume)
            play(.clockAdvanced)
            play(.skipQuestion)
            play(.nextQuestion)
        }
        play(.endGame)
        _ = game.result.map { try? JSONEncoder().encode($0) }
    }
}

/// The result of setting up a target, which must work for the target to mean anything.
private func mustSetUp<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        fatalError("fuzz target setup failed: \(error)")
    }
}

/// Runs `body` in a task and waits for it: the fuzzer's thread is not one of the concurrency pool's.
private func waitFor(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// The in-process daemon the varlink target calls, replaced by a fresh one every ``FuzzTarget/inputsPerDaemon``
/// inputs. Used from the fuzzer's one thread only.
private final class DaemonRotation: @unchecked Sendable {
    private var daemon: InProcessDaemon?
    private var inputs = 0

    /// The daemon for the next input.
    func next() -> InProcessDaemon {
        if let daemon, inputs < FuzzTarget.inputsPerDaemon {
            inputs += 1
            return daemon
        }
        if let old = daemon { waitFor { await old.shutDown() } }
        let fresh = Box<InProcessDaemon>()
        waitFor {
            do {
                fresh.value = try await InProcessDaemon.start()
            } catch {
                fatalError("the fuzzing daemon did not start: \(error)")
            }
        }
        daemon = fresh.value
        inputs = 1
        return fresh.value!
    }
}

/// A value set once from a task and read after it signals.
private final class Box<Value>: @unchecked Sendable {
    var value: Value?
}

import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import Synchronization

extension Benchmark {
    /// Cue latency and idle cost of the ALSA player, through alsa-lib's file plugin with a null slave.
    static let sound = Benchmark(
        name: "sound",
        summary: """
            ALSA player: time from play(.hint) to its first frame handed to snd_pcm_writei (p50/p99 over \
            --cues N, default 200), and CPU of the output thread over --silence-seconds S of silence (default 5). \
            Plays to a file/null PCM unless --sound-device NAME names another.
            """,
        run: runSoundBenchmark)
}

/// When the first frame of the latest cue reached `snd_pcm_writei`, written by the output thread.
private final class FirstFrameStamp: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    func record() { instant.withLock { $0 = .now } }
    func take() -> ContinuousClock.Instant? {
        instant.withLock { value in
            defer { value = nil }; return value
        }
    }
}

private func runSoundBenchmark(_ arguments: BenchmarkArguments) async throws {
    let cues = try arguments.int("--cues", default: 200)
    let silence = try arguments.double("--silence-seconds", default: 5)
    var logger = Logger(label: "shaky.bench.sound")
    logger.logLevel = .warning

    let device: String
    if let named = arguments.string("--sound-device") {
        device = named
    } else {
        device = try nullCapturePCM()
    }
    guard let sounds = InstallLayout.directory(for: .sounds) else {
        throw BenchmarkError("the built-in sounds/ folder was not found (run from the checkout or set SHAKY_DATA_DIR)")
    }
    let bank = SoundBank.load(builtin: sounds, logger: logger)
    guard bank[.hint] != nil else { throw BenchmarkError("no hint cue in \(sounds.path)") }

    let stamp = FirstFrameStamp()
    let player = ALSASoundPlayer(
        bank: bank,
        configuration: .init(device: device, fallbackDevices: [], willWriteFirstFrame: { _ in stamp.record() }),
        logger: logger)
    defer { player.shutdown() }
    await player.waitUntilIdle()
    let status = player.status
    guard let opened = status.device else { throw BenchmarkError("ALSA device \(device) could not be opened") }
    print("device \(opened): period \(status.periodFrames ?? 0) frames, buffer \(status.bufferFrames ?? 0) frames")

    // Latency: each cue starts from idle (PCM stopped), the path a hint takes after a quiet moment.
    var latencies: [Duration] = []
    latencies.reserveCapacity(cues)
    for _ in 0..<cues {
        let start = ContinuousClock.now
        player.play(.hint)
        await player.waitUntilIdle()
        guard let firstFrame = stamp.take() else { throw BenchmarkError("a hint was never written") }
        latencies.append(start.duration(to: firstFrame))
    }
    let summary = DurationSummary(latencies)
    print(
        "play(.hint) → first frame to snd_pcm_writei over \(cues) cues: "
            + "p50 \(DurationSummary.milliseconds(summary.percentile(0.5))), "
            + "p99 \(DurationSummary.milliseconds(summary.percentile(0.99))), "
            + "max \(DurationSummary.milliseconds(summary.sorted.last ?? .zero)) "
            + "(target ≤ 30 ms including one period of \(DurationSummary.milliseconds(periodDuration(status))))")

    // Idle cost: the output thread should sleep on its condition variable.
    guard let before = player.outputThreadCPUTime else { throw BenchmarkError("no output thread CPU clock") }
    try await Task.sleep(for: .seconds(silence))
    guard let after = player.outputThreadCPUTime else { throw BenchmarkError("no output thread CPU clock") }
    print(
        "output thread CPU over \(silence) s of silence: \(DurationSummary.milliseconds(after - before)) (target ~0)")
}

private func periodDuration(_ status: ALSASoundPlayer.Status) -> Duration {
    .seconds(Double(status.periodFrames ?? 0) / Double(SoundBank.sampleRate))
}

/// Writes an ALSA configuration with a `file` PCM whose slave is `null`, points ALSA_CONFIG_PATH at it, and
/// returns the PCM's name. Must run before the first ALSA call of the process.
private func nullCapturePCM() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "shaky-bench-\(getpid())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configuration = folder.appendingPathComponent("asound.conf")
    let text = """
        </usr/share/alsa/alsa.conf>
        pcm.shakybench {
            type file
            slave.pcm "null"
            file "/dev/null"
            format "raw"
        }

        """
    try text.write(to: configuration, atomically: true, encoding: .utf8)
    setenv("ALSA_CONFIG_PATH", configuration.path, 1)
    return "shakybench"
}

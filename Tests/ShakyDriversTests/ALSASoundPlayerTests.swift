import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import ShakyTesting
import Synchronization
import Testing

/// The real player through alsa-lib, captured by the `file` plugin: no sound card needed, never skipped.
@Suite("ALSA player, captured through alsa-lib's file plugin")
struct ALSASoundPlayerTests {
    static let bank = SoundBank.load(builtin: SoundWAV.builtinFolder, logger: Logger(label: "test"))

    private func cue(_ cue: SoundCue) throws -> [Int16] {
        try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent(cue.fileName)).samples
    }

    /// Plays through a fresh capture PCM, waits until the player is idle, shuts it down and returns the capture.
    private func capture(
        settings: SoundLevel = .default,
        _ body: (ALSASoundPlayer) -> Void
    ) async throws -> (frames: [Int16], status: ALSASoundPlayer.Status) {
        let device = try ALSACaptureDevices.claim()
        let player = ALSASoundPlayer(
            bank: Self.bank, configuration: .init(device: device.name, fallbackDevices: []), settings: settings,
            logger: SoundLogRecorder().logger())
        await player.waitUntilIdle()
        let status = player.status
        try #require(
            status.device == device.name,
            "alsa-lib's file plugin did not open \(device.name); is libasound2 with its plugins installed?")
        body(player)
        await player.waitUntilIdle()
        player.shutdown()
        return (try device.frames(), status)
    }

    /// Checks that `captured` starts with `expected` exactly and holds only silence after it.
    private func expectCaptured(
        _ captured: [Int16], equals expected: [Int16], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            captured.count >= expected.count, "captured \(captured.count) frames, expected at least \(expected.count)",
            sourceLocation: sourceLocation)
        let prefix = Array(captured.prefix(expected.count))
        let firstDifference = zip(prefix, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            firstDifference == nil, "first difference at frame \(firstDifference ?? -1)", sourceLocation: sourceLocation
        )
        #expect(
            captured.dropFirst(expected.count).allSatisfy { $0 == 0 }, "sound after the cue",
            sourceLocation: sourceLocation)
    }

    @Test("the PCM gets the requested 5 ms period and 20 ms buffer")
    func latencyParameters() async throws {
        let (_, status) = try await capture { _ in }
        #expect(status.periodFrames == 240)
        #expect(status.bufferFrames == 960)
    }

    @Test("a hint is captured sample-exact")
    func hintIsSampleExact() async throws {
        let (frames, _) = try await capture { $0.play(.hint) }
        expectCaptured(frames, equals: try cue(.hint))
        #expect(frames.count % 240 == 0, "whole periods are written")
    }

    @Test("two overlapping cues are captured as their clipped sum")
    func overlappingCuesMix() async throws {
        let offset = 1_000
        let (frames, _) = try await capture {
            $0.play([SoundPlacement(.hint), SoundPlacement(.buzz(slot: 2), delayFrames: offset)])
        }
        let hint = try cue(.hint)
        let buzz = try cue(.buzz(slot: 2))
        var sum = [Int](repeating: 0, count: max(hint.count, offset + buzz.count))
        for (index, sample) in hint.enumerated() { sum[index] += Int(sample) }
        for (index, sample) in buzz.enumerated() { sum[offset + index] += Int(sample) }
        #expect(sum.contains { $0 > Int(Int16.max) || $0 < Int(Int16.min) }, "the cues are loud enough to clip")
        expectCaptured(frames, equals: sum.map { Int16(clamping: $0) })
    }

    @Test("a cue played while another plays mixes in from the next period")
    func cueDuringPlayback() async throws {
        let device = try ALSACaptureDevices.claim()
        let playerBox = Mutex<ALSASoundPlayer?>(nil)
        // Just before the hint's first period is written, the game asks for a tick: it must start one period later.
        let configuration = ALSASoundPlayer.Configuration(
            device: device.name, fallbackDevices: [],
            willWriteFirstFrame: { cue in
                if cue == .hint { playerBox.withLock { $0 }?.play(.tick) }
            })
        let player = ALSASoundPlayer(bank: Self.bank, configuration: configuration, logger: SoundLogRecorder().logger())
        playerBox.withLock { $0 = player }
        await player.waitUntilIdle()
        let period = try #require(player.status.periodFrames)
        player.play(.hint)
        await player.waitUntilIdle()
        playerBox.withLock { $0 = nil }
        player.shutdown()
        let hint = try cue(.hint)
        let tick = try cue(.tick)
        var sum = hint.map(Int.init)
        for (index, sample) in tick.enumerated() { sum[period + index] += Int(sample) }
        expectCaptured(try device.frames(), equals: sum.map { Int16(clamping: $0) })
    }

    @Test("volume 50 % halves every sample, rounding down")
    func halfVolume() async throws {
        let (frames, _) = try await capture(settings: SoundLevel(volume: 0.5)) { $0.play(.correct) }
        expectCaptured(frames, equals: try cue(.correct).map { Int16((Int($0) * 32768) >> 16) })
    }

    @Test("volume changed live applies to the next cue")
    func liveVolume() async throws {
        let (frames, _) = try await capture { player in
            player.apply(SoundLevel(volume: 0.5))
            player.play(.tick)
        }
        expectCaptured(frames, equals: try cue(.tick).map { Int16(Int($0) >> 1) })
    }

    @Test("muted plays nothing; unmuted plays again")
    func muted() async throws {
        let (mutedFrames, _) = try await capture(settings: SoundLevel(enabled: false)) { player in
            player.play(.hint)
            player.play(.buzz(slot: 0))
        }
        #expect(mutedFrames.isEmpty)
        let (frames, _) = try await capture(settings: SoundLevel(enabled: false)) { player in
            player.play(.hint)
            player.apply(SoundLevel(enabled: true))
            player.play(.tick)
        }
        expectCaptured(frames, equals: try cue(.tick))
    }

    @Test("a missing device falls back to default without delaying play()")
    func missingDeviceFallsBackToDefault() async throws {
        _ = try ALSACaptureDevices.claim()  // sets up the configuration that makes `default` a capture PCM
        let log = SoundLogRecorder()
        let clock = ContinuousClock()
        let start = clock.now
        let player = ALSASoundPlayer(
            bank: Self.bank, configuration: .init(device: "nosuchdevice", fallbackDevices: ["default"]),
            logger: log.logger())
        let playCall = clock.measure { player.play(.hint) }
        let constructed = start.duration(to: clock.now)
        await player.waitUntilIdle()
        #expect(player.status.device == "default")
        player.shutdown()
        #expect(playCall < .milliseconds(50), "play() took \(playCall)")
        #expect(constructed < .milliseconds(200), "starting the player took \(constructed)")
        expectCaptured(try ALSACaptureDevices.defaultDevice.frames(), equals: try cue(.hint))
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.contains("nosuchdevice") == true)
    }

    @Test("no usable device: silent, logged once, play() never waits, devices retried after the back-off")
    func noDeviceIsSilentAndRetried() async throws {
        _ = try ALSACaptureDevices.claim()
        let log = SoundLogRecorder()
        let now = Mutex<Duration>(.zero)
        let player = ALSASoundPlayer(
            bank: Self.bank,
            configuration: .init(
                device: "nosuchdevice", fallbackDevices: ["nosuchdevice2"], retryInterval: .seconds(10),
                uptime: { now.withLock { $0 } }),
            logger: log.logger())
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for _ in 0..<3 {
            slowest = max(slowest, clock.measure { player.play(.hint) })
            await player.waitUntilIdle()
        }
        #expect(player.status.device == nil)
        #expect(player.status.deviceRounds == 1, "no retry before the back-off")
        #expect(slowest < .milliseconds(50), "play() took \(slowest)")
        #expect(log.warnings.count == 3, "\(log.warnings)")
        #expect(log.warnings.filter { $0.contains("nosuchdevice2") }.count == 2)

        now.withLock { $0 = .seconds(11) }
        player.play(.hint)
        await player.waitUntilIdle()
        #expect(player.status.deviceRounds == 2)
        #expect(log.warnings.count == 3, "a retry that fails the same way is not logged again")
        player.shutdown()
    }

    @Test("a device that fails on every write: logged once, not reopened before the back-off, retried after it")
    func failingDeviceIsLoggedOnceAndRetriedOnSchedule() async throws {
        let log = SoundLogRecorder()
        let now = Mutex<Duration>(.zero)
        let player = ALSASoundPlayer(
            bank: Self.bank,
            configuration: .init(
                device: ALSACaptureDevices.failingDevice, fallbackDevices: [], retryInterval: .seconds(10),
                uptime: { now.withLock { $0 } }),
            logger: log.logger())
        await player.waitUntilIdle()
        #expect(player.status.device == ALSACaptureDevices.failingDevice, "the device opens")
        for _ in 0..<3 {
            player.play(.hint)
            await player.waitUntilIdle()
        }
        #expect(player.status.device == nil)
        #expect(player.status.deviceRounds == 1, "not reopened before the back-off")
        #expect(log.warnings.count == 1, "\(log.warnings)")
        // The host learns what became of the cue, when the device is tried again, and what to do about it.
        let warning = log.warnings.first ?? ""
        #expect(warning.contains(ALSACaptureDevices.failingDevice), "\(warning)")
        #expect(warning.contains("cue is dropped"), "\(warning)")
        #expect(warning.contains("again on a cue 10 s from now"), "\(warning)")
        #expect(warning.contains("aplay -L"), "what to do: \(warning)")

        now.withLock { $0 = .seconds(11) }
        for _ in 0..<2 {
            player.play(.hint)
            await player.waitUntilIdle()
        }
        #expect(player.status.deviceRounds == 2, "reopened once after the back-off")
        #expect(log.warnings.count == 1, "the same failure again is not logged again: \(log.warnings)")
        let announcements = log.entries.filter { $0.level >= .info && $0.message.contains("sound on ALSA device") }
        #expect(announcements.count == 1)
        player.shutdown()
    }

    @Test(
        "a device that never answers (a file PCM writing to a named pipe nothing reads) does not hold up shutdown, and the cues waiting for it are bounded"
    )
    func stuckDeviceDoesNotHoldUpShutdown() async throws {
        let log = SoundLogRecorder()
        let player = ALSASoundPlayer(
            bank: Self.bank,
            configuration: .init(
                device: ALSACaptureDevices.stuckDevice, fallbackDevices: [], stopTimeout: .milliseconds(100)),
            logger: log.logger())
        // The output thread is held in the device's open: cues pile up, only the latest 32 are kept.
        for _ in 0..<100 { player.play(.hint) }
        #expect(player.status.droppedCues == 68)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            player.shutdown()
            returned.signal()
        }
        // Waited for on a thread of its own: the threads the tests' tasks share stay free meanwhile.
        let stoppedInTime = await onThreadOfItsOwn { returned.wait(timeout: .now() + .seconds(20)) == .success }
        // Let the output thread's open return, so that it ends and the process is not left with it.
        let reader = ALSACaptureDevices.releaseStuckDevice()
        defer { if reader >= 0 { close(reader) } }
        if !stoppedInTime { _ = await onThreadOfItsOwn { returned.wait(timeout: .now() + .seconds(10)) } }
        await player.waitUntilIdle()
        #expect(stoppedInTime, "shutdown waited for a sound device that never answered")
        let warning = log.warnings.first { $0.contains("did not answer") }
        #expect(warning?.contains(ALSACaptureDevices.stuckDevice) == true, "\(log.warnings)")
        #expect(warning?.contains("aplay -L") == true, "what to do: \(log.warnings)")
        let dropped = log.warnings.filter { $0.contains("dropped") }
        #expect(
            dropped == [
                "sound device \(ALSACaptureDevices.stuckDevice) fell behind: 68 sound cues dropped, the latest 32 kept"
            ])
    }

    @Test("on a fallback, the configured device is tried again every retry interval and played on once it is back")
    func configuredDeviceIsPlayedOnOnceBack() async throws {
        let fallbackDevice = try ALSACaptureDevices.claim()
        let late = ALSACaptureDevices.lateDevice
        let log = SoundLogRecorder()
        let now = Mutex<Duration>(.zero)
        let player = ALSASoundPlayer(
            bank: Self.bank,
            configuration: .init(
                device: late.name, fallbackDevices: [fallbackDevice.name], retryInterval: .seconds(10),
                uptime: { now.withLock { $0 } }),
            logger: log.logger())
        player.play(.hint)
        await player.waitUntilIdle()
        #expect(player.status.device == fallbackDevice.name)
        try ALSACaptureDevices.plugInLateDevice()
        now.withLock { $0 = .seconds(5) }
        player.play(.hint)
        await player.waitUntilIdle()
        #expect(player.status.device == fallbackDevice.name, "not before the retry interval")
        now.withLock { $0 = .seconds(11) }
        player.play(.hint)  // played on the fallback, which is then left while idle
        await player.waitUntilIdle()
        player.play(.correct)
        await player.waitUntilIdle()
        #expect(player.status.device == late.name)
        player.shutdown()
        expectCaptured(try late.frames(), equals: try cue(.correct))
        #expect(log.warnings.count == 1, "the configured device's absence is logged once: \(log.warnings)")
    }

    @Test("play() after shutdown is ignored and returns at once")
    func afterShutdown() async throws {
        let device = try ALSACaptureDevices.claim()
        let player = ALSASoundPlayer(
            bank: Self.bank, configuration: .init(device: device.name, fallbackDevices: []),
            logger: SoundLogRecorder().logger())
        player.shutdown()
        player.play(.hint)
        await player.waitUntilIdle()
        #expect(player.status.device == nil)
        #expect(try device.frames().isEmpty)
    }
}

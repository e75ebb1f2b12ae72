import Foundation
import Logging
import ShakyCore

/// Plays sound cues through ALSA: one PCM kept open, an in-process mixer, one output thread.
///
/// - ``play(_:)`` only appends to a queue under a lock and signals the output thread: the game never waits.
/// - The output thread (a real thread, `shaky-sound`) mixes every playing cue with ``SoundMixer`` and writes one
///   period at a time (about 5 ms of a 20 ms buffer) to a PCM opened non-blocking; it waits in `snd_pcm_wait`
///   while the buffer is full.
/// - When the last cue has ended it writes one buffer of silence (so the end of the cue leaves the device),
///   stops the PCM with `snd_pcm_drop`, and blocks on a condition variable: no spinning, no endless silence.
///   The next cue prepares the PCM again and starts it with its first period.
/// - Underruns (`EPIPE`), suspends (`ESTRPIPE`) and interruptions are recovered with `snd_pcm_recover`. A device
///   that cannot be opened, or breaks, gives way to the next in ``SoundDeviceFallback`` order (configured, then
///   `default`), then to silence; each failure is logged once and the devices are tried again on a cue after
///   ``Configuration/retryInterval``. A device that opens but fails before it played anything (on every write)
///   waits out the same interval before it is reopened.
///
/// Cues are decoded once (``SoundBank``) in the output format, S16_LE mono 48 000 Hz, which the PCM is asked
/// for exactly: no conversion happens while playing unless the ALSA device itself converts (`default`, `plug:`).
public final class ALSASoundPlayer: SoundPlayer, @unchecked Sendable {
    /// Where and how the player plays.
    public struct Configuration: Sendable {
        /// The ALSA device to use (`--sound-device`): `default`, `plughw:1,0`, any PCM the ALSA configuration names.
        public var device: String
        /// Devices tried, in order, when ``device`` cannot be opened.
        public var fallbackDevices: [String]
        /// The period requested, in frames (240 = 5 ms at 48 kHz); the device may choose the nearest it can.
        public var periodFrames: Int
        /// The ring buffer requested, in frames (960 = 20 ms at 48 kHz).
        public var bufferFrames: Int
        /// How long the player stays silent after every device failed before trying them again.
        public var retryInterval: Duration
        /// A monotonic clock reading, for the retry back-off; injected in tests.
        public var uptime: @Sendable () -> Duration
        /// How long ``ALSASoundPlayer/shutdown()`` waits for the output thread: a device whose calls never return (a
        /// `file` PCM writing to a named pipe nothing reads) must not keep the daemon from stopping.
        public var stopTimeout: Duration
        /// Called on the output thread just before the write that carries a cue's first frame (for measurements).
        public var willWriteFirstFrame: (@Sendable (SoundCue) -> Void)?

        /// Creates a configuration; the defaults aim at about 20 ms of latency.
        public init(
            device: String = "default",
            fallbackDevices: [String] = ["default"],
            periodFrames: Int = 240,
            bufferFrames: Int = 960,
            retryInterval: Duration = .seconds(10),
            uptime: @escaping @Sendable () -> Duration = ALSASoundPlayer.monotonicUptime,
            stopTimeout: Duration = .seconds(2),
            willWriteFirstFrame: (@Sendable (SoundCue) -> Void)? = nil
        ) {
            self.device = device
            self.fallbackDevices = fallbackDevices
            self.periodFrames = periodFrames
            self.bufferFrames = bufferFrames
            self.retryInterval = retryInterval
            self.uptime = uptime
            self.stopTimeout = stopTimeout
            self.willWriteFirstFrame = willWriteFirstFrame
        }
    }

    /// What the output thread is doing, for status reports and tests.
    public struct Status: Sendable, Equatable {
        /// The device open now, or `nil` when the player is silent.
        public var device: String?
        /// The period the device accepted, in frames.
        public var periodFrames: Int?
        /// The buffer the device accepted, in frames.
        public var bufferFrames: Int?
        /// How many times the list of devices has been tried.
        public var deviceRounds: Int
        /// How many cues were dropped, the oldest first, because more were waiting than the output thread keeps
        /// while the device does not answer.
        public var droppedCues = 0
    }

    private let engine: ALSAOutputEngine
    private let devices: [String]

    /// The device open now, or silence after the configured device and the fallbacks were tried.
    public var outputState: SoundOutputState { SoundOutputState(device: status.device, tried: devices) }

    /// Starts the output thread, which opens the device; returns without waiting for it.
    public init(
        bank: SoundBank, configuration: Configuration = Configuration(), settings: SoundLevel = .default,
        logger: Logger
    ) {
        engine = ALSAOutputEngine(bank: bank, configuration: configuration, settings: settings, logger: logger)
        devices = [configuration.device] + configuration.fallbackDevices.filter { $0 != configuration.device }
        engine.start()
    }

    deinit {
        engine.stop()
    }

    /// Starts `cue` with the next period, mixed over whatever plays. Returns at once.
    public func play(_ cue: SoundCue) {
        engine.enqueue([SoundPlacement(cue)])
    }

    /// Starts several cues, each at its frame offset from the same next period: they are placed together.
    public func play(_ placements: [SoundPlacement]) {
        engine.enqueue(placements)
    }

    /// Applies sound settings live: off stops what plays at once; volume applies from the next period.
    public func apply(_ settings: SoundLevel) {
        engine.apply(settings)
    }

    /// The settings last applied.
    public var settings: SoundLevel { engine.withLock { $0.settings } }

    /// What the output thread is doing.
    public var status: Status { engine.withLock { $0.status } }

    /// Returns once every cue asked for has been written and the output is idle (the PCM stopped).
    public func waitUntilIdle() async {
        await engine.waitUntilIdle()
    }

    /// Stops the output thread and closes the PCM; cues played afterwards are ignored. Blocks until done.
    public func shutdown() {
        engine.stop()
    }

    /// The CPU time the output thread has used so far, or `nil` before it started or after it ended.
    public var outputThreadCPUTime: Duration? { engine.outputThreadCPUTime() }

    /// A monotonic reading: the time since the first call.
    public static let monotonicUptime: @Sendable () -> Duration = {
        let origin = ContinuousClock.now
        return { ContinuousClock.now - origin }
    }()
}

/// A cue to start at a frame offset from the next period the player renders.
public struct SoundPlacement: Sendable, Hashable {
    /// The cue.
    public var cue: SoundCue
    /// Frames to wait before its first frame (48 = 1 ms).
    public var delayFrames: Int

    /// Creates a placement.
    public init(_ cue: SoundCue, delayFrames: Int = 0) {
        self.cue = cue
        self.delayFrames = delayFrames
    }
}

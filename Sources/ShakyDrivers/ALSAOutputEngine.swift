import Foundation
import Logging
import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The output thread of ``ALSASoundPlayer`` and the state it shares with the game's side.
///
/// Shared state lives in ``Shared`` and is touched only under `condition`; the PCM, the mixer and the chunk
/// being written belong to the output thread alone.
final class ALSAOutputEngine: @unchecked Sendable {
    /// What the game's side and the output thread share; guarded by `condition`.
    struct Shared {
        var settings: SoundLevel
        var pending: [SoundPlacement] = []
        /// Cues dropped from a full queue that the output thread has not logged yet.
        var droppedSinceLogged = 0
        var stopRequested = false
        var stopped = false
        var idle = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var status = ALSASoundPlayer.Status(device: nil, periodFrames: nil, bufferFrames: nil, deviceRounds: 0)
        /// The device being opened, or open: the one to name when the output thread does not answer.
        var deviceInUse: String?
        var thread: pthread_t?
    }

    private let condition = NSCondition()
    private var shared: Shared
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    // Output thread only.
    private let bank: SoundBank
    private let configuration: ALSASoundPlayer.Configuration
    private let logger: Logger
    private var fallback: SoundDeviceFallback
    private var pcm: ALSAPCM?
    private var running = false
    private var mixer = SoundMixer()
    private var chunk: [Int16] = []
    private var chunkStart = 0
    private var chunkEnd = 0
    private var chunkCues: [SoundCue] = []
    private var silentFrames = 0

    init(bank: SoundBank, configuration: ALSASoundPlayer.Configuration, settings: SoundLevel, logger: Logger) {
        self.bank = bank
        self.configuration = configuration
        self.logger = logger
        self.shared = Shared(settings: settings)
        self.fallback = SoundDeviceFallback(
            device: configuration.device, fallbacks: configuration.fallbackDevices,
            retryInterval: configuration.retryInterval)
    }

    func withLock<Result>(_ body: (inout Shared) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(&shared)
    }

    func start() {
        let thread = Thread(named: "shaky-sound") { [self] in run() }
        started = true
        thread.start()
    }

    /// The most cues that wait for the output thread: it takes them every period, so more wait only while the
    /// device does not answer (a write or an open that blocks), and then the oldest are stale.
    static let maximumPendingCues = 32

    func enqueue(_ placements: [SoundPlacement]) {
        condition.lock()
        if shared.settings.enabled, !shared.stopRequested {
            shared.pending.append(contentsOf: placements)
            let excess = shared.pending.count - Self.maximumPendingCues
            if excess > 0 {
                shared.pending.removeFirst(excess)
                shared.status.droppedCues += excess
                shared.droppedSinceLogged += excess
            }
            shared.idle = false
            condition.signal()
        }
        condition.unlock()
    }

    func apply(_ settings: SoundLevel) {
        condition.lock()
        shared.settings = settings
        if !settings.enabled { shared.pending.removeAll() }
        condition.signal()
        condition.unlock()
    }

    /// Asks the output thread to end and waits for it, at most ``ALSASoundPlayer/Configuration/stopTimeout``: a
    /// device call that never returns (alsa-lib's `file` plugin opening or writing a named pipe nothing reads) is
    /// left behind, logged, so that the daemon still stops.
    func stop() {
        condition.lock()
        let wasRequested = shared.stopRequested
        shared.stopRequested = true
        condition.signal()
        condition.unlock()
        guard started, !wasRequested else { return }
        let timeout = configuration.stopTimeout.components
        let nanoseconds = Int(clamping: timeout.seconds) &* 1_000_000_000 &+ Int(timeout.attoseconds / 1_000_000_000)
        guard finished.wait(timeout: .now() + .nanoseconds(max(nanoseconds, 0))) == .timedOut else { return }
        let device = withLock { $0.deviceInUse } ?? configuration.device
        logger.warning(
            "sound device \(device) did not answer within \(configuration.stopTimeout); stopping without it: check the device or choose another sound-device (`aplay -L` lists them)"
        )
    }

    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if (shared.idle && shared.pending.isEmpty) || shared.stopped {
                condition.unlock()
                continuation.resume()
                return
            }
            shared.idleWaiters.append(continuation)
            condition.unlock()
        }
    }

    func outputThreadCPUTime() -> Duration? {
        condition.lock()
        defer { condition.unlock() }
        guard let thread = shared.thread, !shared.stopped else { return nil }
        var clock = clockid_t()
        guard pthread_getcpuclockid(thread, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    // MARK: - The output thread

    private func run() {
        withLock { $0.thread = pthread_self() }
        openDevice()
        while step() {}
        closeDevice()
        condition.lock()
        shared.stopped = true
        shared.idle = true
        shared.thread = nil
        let waiters = shared.idleWaiters
        shared.idleWaiters = []
        condition.unlock()
        for waiter in waiters { waiter.resume() }
        finished.signal()
    }

    /// One turn of the loop: take new cues, then write (or wait for room for) one chunk. Returns false to end.
    private func step() -> Bool {
        condition.lock()
        var placements = shared.pending
        shared.pending = []
        let dropped = shared.droppedSinceLogged
        shared.droppedSinceLogged = 0
        let device = shared.deviceInUse ?? configuration.device
        let settings = shared.settings
        if !settings.enabled { placements = [] }
        let busy = !placements.isEmpty || !mixer.isIdle || chunkStart < chunkEnd || running
        if !busy && !shared.stopRequested {
            // Idle: tell the waiters, then block until a cue or a stop arrives.
            shared.idle = true
            let waiters = shared.idleWaiters
            shared.idleWaiters = []
            condition.unlock()
            for waiter in waiters { waiter.resume() }
            condition.lock()
            while shared.pending.isEmpty && !shared.stopRequested { condition.wait() }
            shared.idle = false
            condition.unlock()
            return true
        }
        let stopping = shared.stopRequested
        condition.unlock()
        if dropped > 0 {
            logger.warning(
                "sound device \(device) fell behind: \(dropped) sound cue\(dropped == 1 ? "" : "s") dropped, the latest \(Self.maximumPendingCues) kept"
            )
        }
        if stopping { return false }

        if !settings.enabled {
            mute()
            return true
        }
        for placement in placements {
            guard let samples = bank[placement.cue] else { continue }
            mixer.start(samples, cue: placement.cue.normalized, afterFrames: placement.delayFrames)
        }
        if pcm == nil, !mixer.isIdle {
            openDevice()
        }
        guard let pcm else {
            // Silent: what was asked for is dropped, the game goes on.
            mixer.stopAll()
            chunkStart = 0
            chunkEnd = 0
            running = false
            return true
        }
        if chunkStart == chunkEnd {
            if mixer.isIdle && silentFrames >= pcm.bufferFrames {
                stopOutput()
                return true
            }
            renderChunk(periodFrames: pcm.periodFrames)
        }
        write(to: pcm)
        return true
    }

    private func renderChunk(periodFrames: Int) {
        if chunk.count != periodFrames { chunk = [Int16](repeating: 0, count: periodFrames) }
        let wasIdle = mixer.isIdle
        chunkCues = chunk.withUnsafeMutableBufferPointer { buffer in
            mixer.render(into: buffer, volume: withLock { $0.settings.volume })
        }
        chunkStart = 0
        chunkEnd = periodFrames
        silentFrames = wasIdle ? silentFrames + periodFrames : 0
    }

    private func write(to pcm: ALSAPCM) {
        do {
            if !running {
                try pcm.prepare()
                running = true
            }
            if !chunkCues.isEmpty, let hook = configuration.willWriteFirstFrame {
                for cue in chunkCues { hook(cue) }
            }
            chunkCues = []
            let written = try chunk.withUnsafeBufferPointer { buffer throws(DeviceError) in
                try pcm.write(UnsafeBufferPointer(rebasing: buffer[chunkStart..<chunkEnd]))
            }
            chunkStart += written
            if written == 0 {
                try pcm.waitForRoom(milliseconds: Int32(max(pcm.bufferFrames * 2000 / SoundBank.sampleRate, 10)))
            }
        } catch {
            handle(error, on: pcm)
        }
    }

    private func handle(_ error: DeviceError, on pcm: ALSAPCM) {
        var failure = error
        if ALSAPCM.isRecoverable(error) {
            do {
                try pcm.recover(from: error)
                running = true
                logger.debug("sound recovered: \(error)")
                return
            } catch {
                failure = error
            }
        }
        // The device broke: close it and let the next cue try the devices again.
        closeDevice()
        let wait = fallback.recordLost(at: configuration.uptime())
        // A bare "write failed: Input/output error" left the host guessing whether sound would ever come back.
        let when = wait == .zero ? "on the next cue" : "on a cue \(wait.components.seconds) s from now"
        logFailure(
            failure,
            consequence: "the cue is dropped and the devices are tried again \(when); if this goes on, check "
                + "\(pcm.name) or choose another sound-device (`aplay -L` lists them)")
        mixer.stopAll()
        chunkStart = 0
        chunkEnd = 0
    }

    private func mute() {
        mixer.stopAll()
        chunkStart = 0
        chunkEnd = 0
        if running { stopOutput() }
    }

    private func stopOutput() {
        silentFrames = 0
        running = false
        guard let pcm else { return }
        do {
            try pcm.drop()
            // The output stopped cleanly after what it was given: the device works.
            fallback.recordPlayed()
            // On a fallback for a while: closed while idle, so the next cue tries the preferred devices first.
            if fallback.shouldTryPreferred(at: configuration.uptime()) { closeDevice() }
        } catch {
            handle(error, on: pcm)
        }
    }

    private func openDevice() {
        let now = configuration.uptime()
        guard fallback.mayTry(at: now) else { return }
        withLock { $0.status.deviceRounds += 1 }
        for device in fallback.devices {
            withLock { $0.deviceInUse = device }
            do {
                let opened = try ALSAPCM(
                    name: device, periodFrames: configuration.periodFrames, bufferFrames: configuration.bufferFrames)
                pcm = opened
                running = false
                let announce = fallback.recordOpened(device, at: now)
                withLock {
                    $0.status.device = device
                    $0.status.periodFrames = opened.periodFrames
                    $0.status.bufferFrames = opened.bufferFrames
                }
                logger.log(
                    level: announce ? .info : .debug, "sound on ALSA device \(device)",
                    metadata: ["period": "\(opened.periodFrames)", "buffer": "\(opened.bufferFrames)"])
                return
            } catch {
                logFailure(error)
            }
        }
        withLock { $0.deviceInUse = nil }
        if fallback.recordAllFailed(at: configuration.uptime()) {
            logger.warning(
                "no sound device could be opened (tried \(fallback.devices.joined(separator: ", "))); cues are silent; trying again every \(fallback.retryInterval)"
            )
        }
    }

    private func logFailure(_ error: DeviceError, consequence: String? = nil) {
        let text = consequence.map { "sound device: \(error); \($0)" } ?? "sound device: \(error)"
        if fallback.recordFailure(error) {
            logger.warning("\(text)")
        } else {
            logger.debug("\(text)")
        }
    }

    private func closeDevice() {
        pcm = nil
        withLock { $0.deviceInUse = nil }
        fallback.recordClosed()
        running = false
        withLock {
            $0.status.device = nil
            $0.status.periodFrames = nil
            $0.status.bufferFrames = nil
        }
    }
}

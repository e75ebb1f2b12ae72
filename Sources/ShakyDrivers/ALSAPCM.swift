import CALSA

/// One open ALSA playback PCM in the player's format (S16_LE, mono, 48 000 Hz), non-blocking; the only owner
/// of its `snd_pcm_t`, closed on deinit.
///
/// Every negative return of alsa-lib goes through ``checkNegativeErrno(_:_:device:)``.
final class ALSAPCM {
    /// The ALSA device name as opened (`default`, `plughw:1,0`, a PCM from the ALSA configuration).
    let name: String
    /// Frames per period as the device accepted them.
    let periodFrames: Int
    /// Frames in the ring buffer as the device accepted them.
    let bufferFrames: Int
    private let handle: OpaquePointer

    /// Opens `name` for playback and negotiates the format, the period and the buffer nearest the request.
    ///
    /// The device must accept S16_LE, one channel and 48 000 Hz (alsa-lib's `default` and `plug:` devices convert
    /// anything; a bare `hw:` device may refuse, use `plughw:` then).
    init(name: String, periodFrames: Int, bufferFrames: Int) throws(DeviceError) {
        _ = Self.libraryMessagesSilenced
        var opened: OpaquePointer?
        try checkNegativeErrno(
            snd_pcm_open(&opened, name, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK)),
            DeviceError.openSoundDevice, device: name)
        guard let opened else { throw DeviceError(device: name, operation: DeviceError.openSoundDevice, code: ENODEV) }
        do {
            let (period, buffer) = try Self.configure(
                opened, name: name, periodFrames: periodFrames, bufferFrames: bufferFrames)
            self.periodFrames = period
            self.bufferFrames = buffer
        } catch {
            snd_pcm_close(opened)
            throw error
        }
        self.name = name
        self.handle = opened
    }

    deinit {
        snd_pcm_close(handle)
    }

    /// alsa-lib prints every failed open to stderr ("Unknown PCM …"), on each retry; the player logs each failure
    /// once itself, so the library's own messages are silenced, once per process.
    private static let libraryMessagesSilenced: Bool = {
        CALSA_silence_library_errors() == 0
    }()

    private static func configure(
        _ pcm: OpaquePointer, name: String, periodFrames: Int, bufferFrames: Int
    ) throws(DeviceError) -> (period: Int, buffer: Int) {
        var hardware: OpaquePointer?
        try checkNegativeErrno(snd_pcm_hw_params_malloc(&hardware), "allocate hardware parameters", device: name)
        defer { snd_pcm_hw_params_free(hardware) }
        let step = "set hardware parameters"
        try checkNegativeErrno(snd_pcm_hw_params_any(pcm, hardware), step, device: name)
        try checkNegativeErrno(snd_pcm_hw_params_set_rate_resample(pcm, hardware, 1), step, device: name)
        try checkNegativeErrno(
            snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "\(step) (interleaved access)",
            device: name)
        try checkNegativeErrno(
            snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE), "\(step) (format S16_LE)",
            device: name)
        try checkNegativeErrno(snd_pcm_hw_params_set_channels(pcm, hardware, 1), "\(step) (1 channel)", device: name)
        try checkNegativeErrno(
            snd_pcm_hw_params_set_rate(pcm, hardware, UInt32(SoundBank.sampleRate), 0),
            "\(step) (rate \(SoundBank.sampleRate) Hz)", device: name)
        var buffer = snd_pcm_uframes_t(bufferFrames)
        try checkNegativeErrno(
            snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer), "\(step) (buffer size)", device: name)
        var period = snd_pcm_uframes_t(periodFrames)
        var direction: Int32 = 0
        try checkNegativeErrno(
            snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, &direction), "\(step) (period size)",
            device: name)
        try checkNegativeErrno(snd_pcm_hw_params(pcm, hardware), step, device: name)
        try checkNegativeErrno(snd_pcm_hw_params_get_period_size(hardware, &period, &direction), step, device: name)
        try checkNegativeErrno(snd_pcm_hw_params_get_buffer_size(hardware, &buffer), step, device: name)

        var software: OpaquePointer?
        let softwareStep = "set software parameters"
        try checkNegativeErrno(snd_pcm_sw_params_malloc(&software), softwareStep, device: name)
        defer { snd_pcm_sw_params_free(software) }
        try checkNegativeErrno(snd_pcm_sw_params_current(pcm, software), softwareStep, device: name)
        // Start as soon as one period is written: the player writes whole periods, so a cue starts at once.
        try checkNegativeErrno(
            snd_pcm_sw_params_set_start_threshold(pcm, software, period), "\(softwareStep) (start threshold)",
            device: name)
        try checkNegativeErrno(
            snd_pcm_sw_params_set_avail_min(pcm, software, period), "\(softwareStep) (minimum available)",
            device: name)
        try checkNegativeErrno(snd_pcm_sw_params(pcm, software), softwareStep, device: name)
        return (Int(period), Int(buffer))
    }

    /// Makes the PCM ready to take frames after an open, a drop or a recovery.
    func prepare() throws(DeviceError) {
        try checkNegativeErrno(snd_pcm_prepare(handle), "prepare", device: name)
    }

    /// Writes frames without blocking; returns how many the device took (0 when its buffer is full).
    func write(_ frames: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        let written = snd_pcm_writei(handle, frames.baseAddress, snd_pcm_uframes_t(frames.count))
        if written == -Int(EAGAIN) { return 0 }
        return Int(try checkNegativeErrno(written, "write", device: name))
    }

    /// Blocks until the device can take a period, or `milliseconds` pass.
    func waitForRoom(milliseconds: Int32) throws(DeviceError) {
        try checkNegativeErrno(snd_pcm_wait(handle, milliseconds), "wait", device: name)
    }

    /// Recovers from an underrun (`EPIPE`), a suspend (`ESTRPIPE`) or an interrupted call (`EINTR`).
    func recover(from error: DeviceError) throws(DeviceError) {
        try checkNegativeErrno(
            snd_pcm_recover(handle, -error.code, 1), "recover from \(error.reason.lowercased())", device: name)
    }

    /// Stops at once, discarding what is still buffered.
    func drop() throws(DeviceError) {
        try checkNegativeErrno(snd_pcm_drop(handle), "stop", device: name)
    }

    /// Whether `error` is one ``recover(from:)`` can handle.
    static func isRecoverable(_ error: DeviceError) -> Bool {
        [EPIPE, ESTRPIPE, EINTR].contains(error.code)
    }
}

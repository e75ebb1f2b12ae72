import ShakyCore

/// Sums overlapping cues into one stream of 16-bit mono frames: the player's pure core.
///
/// A cue starts as a ``Voice`` at a frame offset from the next frame rendered; ``render(into:volume:)`` adds
/// every voice's samples, scales the sum by the volume and clips it to `Int16`. The arithmetic is exact and
/// documented so that tests can predict every output sample:
///
///     output = clip(floor(Σ voices × gain / 65536)),  gain = round(volume × 65536)
///
/// At volume 1 the output is the exact (clipped) sum; at volume 0.5 each sample is the sum halved, rounded down.
public struct SoundMixer: Sendable {
    /// One cue being played.
    public struct Voice: Sendable {
        /// The cue, for reporting when its first frame goes out.
        public var cue: SoundCue?
        /// The decoded samples, shared, never copied.
        public var samples: [Int16]
        /// The index of the next sample to mix; negative while the voice still waits to start.
        public var position: Int

        /// Whether every sample has been mixed.
        public var isFinished: Bool { position >= samples.count }
    }

    /// The voices still playing or waiting to start.
    public private(set) var voices: [Voice] = []
    private var accumulator: [Int32] = []

    /// Creates a mixer with nothing playing.
    public init() {}

    /// Whether nothing plays or waits to play.
    public var isIdle: Bool { voices.isEmpty }

    /// The most voices mixed at once. A game starts a few cues together at most; many more arrive only after the
    /// device stalled, and then the oldest are the stale ones. Each voice costs a pass over every period.
    public static let maximumVoices = 16

    /// Starts `samples` after `delay` frames from the next frame rendered (0: with the next frame). With
    /// ``maximumVoices`` already playing or waiting, the oldest of them is stopped to make room.
    public mutating func start(_ samples: [Int16], cue: SoundCue? = nil, afterFrames delay: Int = 0) {
        guard !samples.isEmpty else { return }
        if voices.count >= Self.maximumVoices {
            voices.removeFirst(voices.count - Self.maximumVoices + 1)
        }
        voices.append(Voice(cue: cue, samples: samples, position: -max(delay, 0)))
    }

    /// Stops every voice at once.
    public mutating func stopAll() {
        voices.removeAll()
    }

    /// The fixed-point gain for `volume`: `round(volume × 65536)`, with volume clamped into 0…1.
    public static func gain(forVolume volume: Double) -> Int64 {
        guard volume.isFinite else { return 0 }
        return Int64((min(max(volume, 0), 1) * 65536).rounded())
    }

    /// Renders the next `output.count` frames into `output` and returns the cues whose first frame is among them.
    @discardableResult
    public mutating func render(into output: UnsafeMutableBufferPointer<Int16>, volume: Double) -> [SoundCue] {
        let frames = output.count
        if accumulator.count < frames {
            accumulator = [Int32](repeating: 0, count: frames)
        }
        var started: [SoundCue] = []
        accumulator.withUnsafeMutableBufferPointer { sum in
            for index in 0..<frames { sum[index] = 0 }
            for voiceIndex in voices.indices {
                var voice = voices[voiceIndex]
                var frame = 0
                if voice.position < 0 {
                    let wait = min(-voice.position, frames)
                    frame = wait
                    voice.position += wait
                }
                if voice.position == 0, frame < frames, let cue = voice.cue { started.append(cue) }
                voice.samples.withUnsafeBufferPointer { samples in
                    while frame < frames, voice.position < samples.count {
                        sum[frame] &+= Int32(samples[voice.position])
                        frame += 1
                        voice.position += 1
                    }
                }
                voices[voiceIndex] = voice
            }
            let gain = Self.gain(forVolume: volume)
            for index in 0..<frames {
                let scaled = (Int64(sum[index]) * gain) >> 16
                output[index] = Int16(clamping: scaled)
            }
        }
        voices.removeAll { $0.isFinished }
        return started
    }

    /// Renders the next `frames` frames as an array (for tests and tools).
    public mutating func render(frames: Int, volume: Double = 1) -> [Int16] {
        var output = [Int16](repeating: 0, count: frames)
        output.withUnsafeMutableBufferPointer { _ = render(into: $0, volume: volume) }
        return output
    }
}

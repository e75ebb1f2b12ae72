import ShakyCore
import ShakyDrivers
import Testing

@Suite("The mixer: a pure render core")
struct SoundMixerTests {
    @Test("one voice comes out sample for sample, then silence")
    func singleVoice() {
        var mixer = SoundMixer()
        mixer.start([1, -2, 3, 32767, -32768])
        #expect(mixer.render(frames: 3) == [1, -2, 3])
        #expect(mixer.render(frames: 4) == [32767, -32768, 0, 0])
        #expect(mixer.isIdle)
    }

    @Test("a voice placed at a frame offset starts there, across render calls")
    func offsetAcrossChunks() {
        var mixer = SoundMixer()
        mixer.start([5, 6, 7], afterFrames: 3)
        #expect(mixer.render(frames: 2) == [0, 0])
        #expect(mixer.render(frames: 3) == [0, 5, 6])
        #expect(mixer.render(frames: 2) == [7, 0])
    }

    @Test("at most 16 voices: a seventeenth stops the oldest")
    func voicesAreBounded() {
        var mixer = SoundMixer()
        for slot in 0..<20 { mixer.start([1, 1], cue: .buzz(slot: slot)) }
        #expect(mixer.voices.map(\.cue) == (4..<20).map { SoundCue.buzz(slot: $0) })
        #expect(mixer.render(frames: 3) == [16, 16, 0])
    }

    @Test("overlapping voices sum and clip to Int16")
    func sumAndClip() {
        var mixer = SoundMixer()
        mixer.start([100, 30000, -30000, 1])
        mixer.start([20, 30000, -30000, 1], afterFrames: 0)
        mixer.start([7], afterFrames: 3)
        #expect(mixer.render(frames: 5) == [120, 32767, -32768, 9, 0])
    }

    @Test("volume 0.5 halves each summed sample, rounding down; volume 0 is silence")
    func volume() {
        var half = SoundMixer()
        half.start([10, 11, -10, -11, -1, 32767])
        #expect(half.render(frames: 6, volume: 0.5) == [5, 5, -5, -6, -1, 16383])
        var silent = SoundMixer()
        silent.start([1000, -1000])
        #expect(silent.render(frames: 2, volume: 0) == [0, 0])
        #expect(SoundMixer.gain(forVolume: 0.5) == 32768)
        #expect(SoundMixer.gain(forVolume: 1) == 65536)
    }

    @Test("volume scales the sum before clipping")
    func volumeBeforeClipping() {
        var mixer = SoundMixer()
        mixer.start([30000])
        mixer.start([30000])
        #expect(mixer.render(frames: 1, volume: 0.5) == [30000])
    }

    @Test("render reports the cues whose first frame it produced")
    func startedCues() {
        var mixer = SoundMixer()
        mixer.start([1, 1], cue: .hint)
        mixer.start([2], cue: .tick, afterFrames: 4)
        let first = [Int16](repeating: 0, count: 4)
        var buffer = first
        let startedFirst = buffer.withUnsafeMutableBufferPointer { mixer.render(into: $0, volume: 1) }
        let startedSecond = buffer.withUnsafeMutableBufferPointer { mixer.render(into: $0, volume: 1) }
        #expect(startedFirst == [.hint])
        #expect(startedSecond == [.tick])
    }

    @Test("stopAll silences at once")
    func stopAll() {
        var mixer = SoundMixer()
        mixer.start([1, 2, 3])
        mixer.stopAll()
        #expect(mixer.isIdle)
        #expect(mixer.render(frames: 2) == [0, 0])
    }
}

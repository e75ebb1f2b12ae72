import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import Testing

@Suite("The built-in sound cues")
struct SoundCueTests {
    @Test("every cue has its own file name; buzz slots wrap at 8")
    func fileNames() {
        let names = SoundCue.allCases.map(\.fileName)
        #expect(names.count == 16)
        #expect(Set(names).count == names.count)
        #expect(SoundCue.buzz(slot: 3).fileName == "buzz-3.wav")
        #expect(SoundCue.buzz(slot: 11).fileName == "buzz-3.wav")
        #expect(SoundCue.buzz(slot: -1).fileName == "buzz-7.wav")
        #expect(SoundCue.timeUp.fileName == "time-up.wav")
    }

    @Test("the checkout's sounds/ folder is where the install layout finds the built-in set")
    func builtinFolderIsFound() throws {
        let found = try #require(InstallLayout.directory(for: .sounds, environment: [:]))
        #expect(found.standardizedFileURL.path == SoundWAV.builtinFolder.standardizedFileURL.path)
    }

    @Test("every cue is a 16-bit mono 48 kHz WAV, peak at most -1 dBFS, hint and buzz at most 400 ms")
    func builtinFilesMeetTheSpecification() throws {
        let peakLimit = Int(32767 * 0.8913)  // -1 dBFS
        for cue in SoundCue.allCases {
            let wav = try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent(cue.fileName))
            #expect(wav.sampleRate == 48_000, "\(cue.fileName)")
            #expect(wav.channels == 1, "\(cue.fileName)")
            #expect(wav.bitsPerSample == 16, "\(cue.fileName)")
            let peak = wav.samples.map { abs(Int($0)) }.max() ?? 0
            #expect(peak <= peakLimit, "\(cue.fileName) peaks at \(peak)")
            #expect(peak > peakLimit / 2, "\(cue.fileName) is not normalised: peak \(peak)")
            switch cue {
            case .hint, .buzz:
                #expect(wav.samples.count <= 48_000 * 400 / 1000, "\(cue.fileName) is longer than 400 ms")
            default:
                #expect(wav.samples.count <= 48_000 * 2, "\(cue.fileName) is longer than 2 s")
            }
        }
    }

    @Test("the eight buzz tones differ from each other")
    func buzzTonesAreDistinct() throws {
        let tones = try (0..<SoundCue.buzzerSlotCount).map {
            try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent(SoundCue.buzz(slot: $0).fileName)).samples
        }
        #expect(Set(tones).count == SoundCue.buzzerSlotCount)
    }

    @Test("the silent player plays nothing but keeps the settings applied")
    func silentPlayerKeepsSettings() {
        let player = SilentSoundPlayer()
        #expect(player.settings == .default)
        player.play(.hint)
        player.apply(SoundLevel(enabled: false, volume: 0.25))
        #expect(player.settings == SoundLevel(enabled: false, volume: 0.25))
    }
}

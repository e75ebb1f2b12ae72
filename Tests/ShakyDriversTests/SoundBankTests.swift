import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import Testing

@Suite("Loading the cues once with libsndfile")
struct SoundBankTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shaky-sounds-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("the built-in set loads completely, sample for sample as the WAV files hold")
    func builtinSet() throws {
        let log = SoundLogRecorder()
        let bank = SoundBank.load(builtin: SoundWAV.builtinFolder, logger: log.logger())
        #expect(bank.problems.isEmpty)
        #expect(log.warnings.isEmpty)
        for cue in SoundCue.allCases {
            let expected = try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent(cue.fileName)).samples
            #expect(bank[cue] == expected, "\(cue.name)")
        }
        #expect(bank[.buzz(slot: 9)] == bank[.buzz(slot: 1)])
    }

    @Test("an override folder replaces the files it has and falls back per missing file")
    func overridesPerFile() throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        try SoundWAV.write([1, 2, 3], to: overrides.appendingPathComponent("hint.wav"))
        let bank = SoundBank.load(
            overrides: overrides, builtin: SoundWAV.builtinFolder, logger: SoundLogRecorder().logger())
        #expect(bank[.hint] == [1, 2, 3])
        #expect(bank.sources[.hint]?.path == overrides.appendingPathComponent("hint.wav").path)
        let builtinTick = try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent("tick.wav")).samples
        #expect(bank[.tick] == builtinTick)
        #expect(bank.problems.isEmpty)
    }

    @Test("an unusable override file is reported by name and the built-in cue is used")
    func badOverrideFallsBack() throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        try Data("not a sound".utf8).write(to: overrides.appendingPathComponent("wrong.wav"))
        try SoundWAV.write([1, 2], sampleRate: 44_100, to: overrides.appendingPathComponent("correct.wav"))
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: overrides, builtin: SoundWAV.builtinFolder, logger: log.logger())
        let builtinWrong = try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent("wrong.wav")).samples
        #expect(bank[.wrong] == builtinWrong)
        #expect(bank.problems.count == 2)
        #expect(bank.problems.contains { $0.file.hasSuffix("wrong.wav") })
        #expect(bank.problems.contains { $0.file.hasSuffix("correct.wav") && $0.reason.contains("44100 Hz") })
        #expect(log.warnings.count == 2)
        #expect(
            log.warnings.allSatisfy { $0.contains("the built-in one plays instead") },
            "the host learns which cue plays: \(log.warnings)")
        let unreadable = bank.problems.first { $0.file.hasSuffix("wrong.wav") }
        #expect(unreadable?.reason.contains("48000 Hz WAV") == true, "what to do: \(String(describing: unreadable))")
    }

    @Test("an override folder that is not there is reported, and the built-in cues play")
    func missingOverrideFolder() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-no-sounds-\(UUID())")
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: missing, builtin: SoundWAV.builtinFolder, logger: log.logger())
        #expect(bank.problems.map(\.file) == [missing.path])
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.contains("\(missing.path)") == true)
        #expect(bank[.hint] == (try SoundWAV.read(SoundWAV.builtinFolder.appendingPathComponent("hint.wav")).samples))
    }

    @Test("a cue with no file anywhere is silent and reported")
    func missingEverywhere() throws {
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: nil, builtin: empty, logger: log.logger())
        #expect(bank[.hint] == nil)
        #expect(bank.problems.count == SoundCue.allCases.count)
        #expect(log.warnings.first?.contains("hint") == true)
    }

    @Test("stereo files are averaged into mono, rounding toward zero")
    func stereoDownmix() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stereo.wav")
        try SoundWAV.write([10, 20, -3, 0, 32767, 32767], channels: 2, to: file)
        #expect(try SoundBank.decode(file) == [15, -1, 32767])
    }

    @Test("a FLAC stream written to a pipe, whose header says its length is unknown, decodes to its end")
    func streamOfUnknownLength() throws {
        // `sox -n -r 48000 -c 2 -b 16 -t flac - synth 0.05 sine 440 gain -6 | cat > …`: libsndfile reports the
        // stream's length as the largest count there is.
        let samples = try SoundBank.decode(
            URL(fileURLWithPath: UmockdevHarness.fixture("streamed-unknown-length.flac")))
        #expect(samples.count == 2_400)
        #expect(samples.contains { $0 != 0 })
    }

    @Test("a file longer than the longest cue is refused by name, and the built-in cue plays")
    func tooLongRefused() throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        let file = overrides.appendingPathComponent("hint.wav")
        let longest = SoundBank.longestCueSeconds * SoundBank.sampleRate
        try SoundWAV.write([Int16](repeating: 100, count: longest + 1), to: file)
        let bank = SoundBank.load(
            overrides: overrides, builtin: SoundWAV.builtinFolder, logger: SoundLogRecorder().logger())
        #expect(bank.sources[.hint]?.path == SoundWAV.builtinFolder.appendingPathComponent("hint.wav").path)
        #expect(bank.problems.map(\.file) == [file.path])
        #expect(bank.problems.first?.reason.contains("longer than 30 s") == true)
        try SoundWAV.write([Int16](repeating: 100, count: longest), to: file)
        #expect(try SoundBank.decode(file).count == longest)
    }
}

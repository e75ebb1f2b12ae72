import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import Synchronization
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

    @Test("a named pipe named like a cue is refused at once by name, instead of holding up start-up for a writer")
    func namedPipeRefused() throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        let pipe = overrides.appendingPathComponent("hint.wav")
        try #require(mkfifo(pipe.path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let loaded = Mutex<SoundBank?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let bank = SoundBank.load(
                overrides: overrides, builtin: SoundWAV.builtinFolder, logger: SoundLogRecorder().logger())
            loaded.withLock { $0 = bank }
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(20)) == .timedOut {
            // Let the stuck reader go (a writer that closes at once), so the process is not left with it.
            let writer = open(pipe.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + .seconds(5))
            Issue.record("loading a folder with a named pipe in it did not return within 20 s")
        }
        let bank = try #require(loaded.withLock { $0 })
        #expect(bank.sources[.hint]?.path == SoundWAV.builtinFolder.appendingPathComponent("hint.wav").path)
        let problem = try #require(bank.problems.first { $0.file == pipe.path }, "\(bank.problems)")
        #expect(problem.reason.contains("named pipe"), "\(problem)")
        #expect(problem.reason.contains("48000 Hz WAV"), "what to do: \(problem)")
    }

    @Test(
        "what is named like a cue but is no sound file is refused by name, saying what it is and what to do",
        arguments: [
            ("a folder", "folder"), ("a link to /dev/zero", "device"), ("a symbolic link loop", "symbolic links"),
            ("a link to nothing", "no such file"), ("an empty file", "empty"),
            ("a WAV without samples", "no samples"),
        ])
    func notASoundFileRefused(kind: String, said: String) throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        let file = overrides.appendingPathComponent("tick.wav")
        let manager = FileManager.default
        switch kind {
        case "a folder": try manager.createDirectory(at: file, withIntermediateDirectories: false)
        case "a link to /dev/zero": try manager.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        case "a symbolic link loop":
            try manager.createSymbolicLink(atPath: file.path, withDestinationPath: "other.wav")
            try manager.createSymbolicLink(
                atPath: overrides.appendingPathComponent("other.wav").path, withDestinationPath: "tick.wav")
        case "a link to nothing": try manager.createSymbolicLink(atPath: file.path, withDestinationPath: "gone.wav")
        case "an empty file": try Data().write(to: file)
        default: try SoundWAV.write([], to: file)
        }
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: overrides, builtin: SoundWAV.builtinFolder, logger: log.logger())
        #expect(bank.sources[.tick]?.path == SoundWAV.builtinFolder.appendingPathComponent("tick.wav").path)
        #expect(bank[.tick]?.isEmpty == false)
        let problem = try #require(bank.problems.first, "\(kind) was taken without a word")
        #expect(bank.problems.count == 1, "\(bank.problems)")
        #expect(problem.file == file.path)
        #expect(problem.reason.contains(said), "\(kind): \(problem)")
        #expect(problem.reason.contains(";"), "\(kind): what to do is missing from \(problem)")
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.contains(file.path) == true)
        #expect(log.warnings.first?.contains("the built-in one plays instead") == true, "\(log.warnings)")
    }

    @Test("--sounds naming a file, not a folder, is reported as such, with what to name instead")
    func overridesNamingAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hint.wav")
        try SoundWAV.write([1, 2, 3], to: file)
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: file, builtin: SoundWAV.builtinFolder, logger: log.logger())
        #expect(bank.problems.map(\.file) == [file.path])
        let reason = bank.problems.first?.reason ?? ""
        #expect(reason.contains("is a file, not a folder"), "\(reason)")
        #expect(reason.contains("name the folder that holds"), "what to do: \(reason)")
        #expect(bank.sources[.hint]?.path == SoundWAV.builtinFolder.appendingPathComponent("hint.wav").path)
    }

    @Test("a file named for a cue in another way (hint.mp3, Tick.wav) is reported with the name to give it")
    func misnamedCueFile() throws {
        let overrides = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: overrides) }
        try SoundWAV.write([1, 2, 3], to: overrides.appendingPathComponent("hint.mp3"))
        try SoundWAV.write([4, 5, 6], to: overrides.appendingPathComponent("Tick.wav"))
        try SoundWAV.write([7, 8, 9], to: overrides.appendingPathComponent("correct.wav"))
        try Data("notes".utf8).write(to: overrides.appendingPathComponent("README.txt"))
        let log = SoundLogRecorder()
        let bank = SoundBank.load(overrides: overrides, builtin: SoundWAV.builtinFolder, logger: log.logger())
        #expect(bank[.correct] == [7, 8, 9])
        #expect(bank.sources[.hint]?.path == SoundWAV.builtinFolder.appendingPathComponent("hint.wav").path)
        #expect(bank.sources[.tick]?.path == SoundWAV.builtinFolder.appendingPathComponent("tick.wav").path)
        #expect(
            Set(bank.problems.map(\.file))
                == [
                    overrides.appendingPathComponent("hint.mp3").path,
                    overrides.appendingPathComponent("Tick.wav").path,
                ])
        #expect(log.warnings.count == 2, "\(log.warnings)")
        #expect(log.warnings.contains { $0.contains("hint.mp3") && $0.contains("rename it to hint.wav") })
        #expect(log.warnings.contains { $0.contains("Tick.wav") && $0.contains("rename it to tick.wav") })
        // Which cues are the host's own is said once, so that a missing file does not go unnoticed.
        let summary = log.entries.filter { $0.level == .notice }.map(\.message)
        #expect(summary.count == 1, "\(log.entries.map(\.message))")
        #expect(summary.first?.contains("correct from \(overrides.path)") == true, "\(summary)")
        #expect(summary.first?.contains("built-in: hint, buzz-0") == true, "\(summary)")
    }

    @Test("a 32-bit float WAV is heard at its level: full scale is full scale, beyond it clips, NaN is silence")
    func floatSamplesAtTheirLevel() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("float.wav")
        try SoundWAV.writeFloat([0.5, -0.5, 1, -1, 2, -2, 0.25, .nan, -.infinity, 0], to: file)
        #expect(
            try SoundBank.decode(file) == [16_384, -16_384, 32_767, -32_768, 32_767, -32_768, 8_192, 0, -32_768, 0])
    }
}

import CSndfile
import Foundation
import Logging
import ShakyCore

/// Every cue decoded once into the player's format: 16-bit signed mono at 48 000 Hz.
///
/// Files come from an override folder (`--sounds DIR`) first and, for each file missing there, from the
/// built-in set (`share/shaky/sounds` when installed, `sounds/` in a checkout). Decoding uses libsndfile; a
/// 16-bit file is taken sample for sample, other sample formats are converted by libsndfile, several channels
/// are averaged into one (integer division, rounding toward zero). Files must be 48 000 Hz: the bank does not
/// resample, it reports the file and falls back to the built-in cue.
public struct SoundBank: Sendable {
    /// The sample rate of every cue and of the output.
    public static let sampleRate = 48_000

    /// The decoded samples per cue (keys are ``SoundCue/normalized`` cues).
    public private(set) var samples: [SoundCue: [Int16]]
    /// The file each cue was decoded from.
    public private(set) var sources: [SoundCue: URL]
    /// What could not be loaded, each naming the file or cue and why.
    public private(set) var problems: [SoundFileError]

    /// Creates a bank from samples already decoded (for tests and benchmarks).
    public init(samples: [SoundCue: [Int16]]) {
        self.samples = Dictionary(samples.map { ($0.key.normalized, $0.value) }, uniquingKeysWith: { $1 })
        self.sources = [:]
        self.problems = []
    }

    /// The samples for `cue`, or `nil` when no file could be loaded for it.
    public subscript(cue: SoundCue) -> [Int16]? { samples[cue.normalized] }

    /// Loads every cue, from `overrides` first and then from `builtin`, logging each problem once.
    ///
    /// - Parameters:
    ///   - overrides: a folder of replacement files with the cues' file names (`--sounds DIR`), or `nil`.
    ///   - builtin: the shipped set; by default found through ``InstallLayout``.
    public static func load(
        overrides: URL? = nil,
        builtin: URL? = InstallLayout.directory(for: .sounds),
        logger: Logger
    ) -> SoundBank {
        load(overrides: overrides, builtin: builtin, sndfile: LibSndfile.shared, logger: logger)
    }

    /// Loads every cue with `sndfile`; when it could not be loaded, every cue is silent and the bank's one problem
    /// says what to install.
    static func load(
        overrides: URL?, builtin: URL?, sndfile: Result<LibSndfile, SharedLibraryError>, logger: Logger
    ) -> SoundBank {
        var bank = SoundBank(samples: [:])
        let library: LibSndfile
        switch sndfile {
        case .success(let loaded): library = loaded
        case .failure(let error):
            let problem = SoundFileError(file: "every cue", reason: "\(error)")
            bank.problems.append(problem)
            logger.warning("sound cues are silent: \(error)")
            return bank
        }
        var isFolder: ObjCBool = false
        if let overrides,
            !FileManager.default.fileExists(atPath: overrides.path, isDirectory: &isFolder) || !isFolder.boolValue
        {
            // Without a word here a mistyped --sounds played the built-in cues as if they were the host's own.
            let error = SoundFileError(file: overrides.path, reason: "no such folder; the built-in cues play")
            bank.problems.append(error)
            logger.warning("sound folder skipped: \(error)")
        }
        for cue in SoundCue.allCases {
            var candidates: [URL] = []
            if let overrides { candidates.append(overrides.appendingPathComponent(cue.fileName)) }
            if let builtin { candidates.append(builtin.appendingPathComponent(cue.fileName)) }
            let found = candidates.filter { FileManager.default.fileExists(atPath: $0.path) }
            for (index, file) in found.enumerated() {
                do {
                    bank.samples[cue] = try decode(file, sndfile: library.functions)
                    bank.sources[cue] = file
                    break
                } catch {
                    bank.problems.append(error)
                    // Only an override comes before another file: the host should know the built-in cue stands in.
                    let next = index + 1 < found.count ? "; the built-in one plays instead" : ""
                    logger.warning("sound file skipped: \(error)\(next)")
                }
            }
            if bank.samples[cue] == nil {
                let looked = candidates.map { $0.deletingLastPathComponent().path }.joined(separator: ", ")
                let error = SoundFileError(
                    file: cue.fileName, reason: "no usable file in \(looked.isEmpty ? "no sound folder" : looked)")
                bank.problems.append(error)
                logger.warning("cue \(cue.name) is silent: \(error)")
            }
        }
        return bank
    }

    /// Decodes one sound file into 16-bit mono samples at ``sampleRate``.
    public static func decode(_ file: URL) throws(SoundFileError) -> [Int16] {
        switch LibSndfile.shared {
        case .success(let library): return try decode(file, sndfile: library.functions)
        case .failure(let error): throw SoundFileError(file: file.path, reason: "cannot be decoded: \(error)")
        }
    }

    /// The longest cue, seconds: a cue is a moment, and every cue stays decoded in memory (96 000 bytes a second).
    public static let longestCueSeconds = 30

    /// Decodes one sound file with libsndfile's `sndfile` functions.
    ///
    /// The file is read in chunks until its end, not into a buffer as long as its header says: a header's length
    /// is the file's word (a FLAC stream written to a pipe says "unknown", which libsndfile reports as the largest
    /// count there is). A file longer than ``longestCueSeconds`` is refused.
    static func decode(_ file: URL, sndfile: shaky_sndfile_functions) throws(SoundFileError) -> [Int16] {
        let strerror = { (handle: OpaquePointer?) in
            sndfile.sf_strerror(handle).map { String(cString: $0) } ?? "unknown libsndfile error"
        }
        var info = SF_INFO()
        guard let handle = sndfile.sf_open(file.path, Int32(SFM_READ), &info) else {
            throw SoundFileError(
                file: file.path,
                reason: "cannot be read (\(strerror(nil))); save it as a \(sampleRate) Hz WAV "
                    + "(sox IN -r \(sampleRate) OUT.wav)")
        }
        defer { _ = sndfile.sf_close(handle) }
        guard info.samplerate == Int32(sampleRate) else {
            throw SoundFileError(
                file: file.path,
                reason: "is \(info.samplerate) Hz; cues must be \(sampleRate) Hz (sox IN -r \(sampleRate) OUT.wav)")
        }
        // libsndfile itself opens no file of more than 1 024 channels (SF_MAX_CHANNELS).
        let channels = Int(info.channels)
        guard (1...1_024).contains(channels) else {
            throw SoundFileError(file: file.path, reason: "has \(channels) channels")
        }
        let longest = longestCueSeconds * sampleRate
        var mono: [Int16] = []
        mono.reserveCapacity(info.frames > 0 && info.frames <= longest ? Int(info.frames) : sampleRate)
        let chunkFrames = max(1, 16_384 / channels)
        var chunk = [Int16](repeating: 0, count: chunkFrames * channels)
        while true {
            let read = chunk.withUnsafeMutableBufferPointer { buffer in
                sndfile.sf_readf_short(handle, buffer.baseAddress, sf_count_t(chunkFrames))
            }
            guard read > 0 else { break }
            let frames = Int(read)
            guard mono.count + frames <= longest else {
                throw SoundFileError(
                    file: file.path, reason: "is longer than \(longestCueSeconds) s; a cue should be a moment")
            }
            if channels == 1 {
                mono.append(contentsOf: chunk[..<frames])
                continue
            }
            for frame in 0..<frames {
                var sum = 0
                for channel in 0..<channels { sum += Int(chunk[frame * channels + channel]) }
                mono.append(Int16(sum / channels))
            }
        }
        if sndfile.sf_error(handle) != 0 {
            throw SoundFileError(file: file.path, reason: "read \(mono.count) frames, then: \(strerror(handle))")
        }
        if info.frames >= 0 && info.frames < longest && mono.count < Int(info.frames) {
            throw SoundFileError(file: file.path, reason: "ends after \(mono.count) of \(info.frames) frames")
        }
        return mono
    }
}

/// A sound file that could not be used, and why.
public struct SoundFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path (or the cue's file name when no file was found).
    public var file: String
    /// What is wrong with it, as libsndfile or the bank says.
    public var reason: String

    /// Creates an error.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}

import CSndfile
import Foundation
import Logging
import ShakyCore
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Every cue decoded once into the player's format: 16-bit signed mono at 48 000 Hz.
///
/// Files come from an override folder (`--sounds DIR`) first and, for each file missing there, from the
/// built-in set (`share/shaky/sounds` when installed, `sounds/` in a checkout). Decoding uses libsndfile; a
/// 16-bit file is taken sample for sample, float samples are scaled by 32 768 and clipped, other sample formats are
/// converted by libsndfile, several channels
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
        let overrideFolder = checkedOverrideFolder(overrides, bank: &bank, logger: logger)
        if let overrideFolder { reportMisnamedFiles(in: overrideFolder, bank: &bank, logger: logger) }
        for cue in SoundCue.allCases {
            var candidates: [URL] = []
            if let overrideFolder { candidates.append(overrideFolder.appendingPathComponent(cue.fileName)) }
            if let builtin { candidates.append(builtin.appendingPathComponent(cue.fileName)) }
            // Whatever is there by the name counts, a link to nothing or a loop too: it is reported, not passed over.
            let found = candidates.filter { entryExists($0) }
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
        if let overrideFolder {
            // A cue whose file is simply not there plays the built-in one; said once, so it does not go unnoticed.
            let own = SoundCue.allCases.filter {
                bank.sources[$0]?.deletingLastPathComponent().path == overrideFolder.path
            }
            let others = SoundCue.allCases.filter { !own.contains($0) }.map(\.name)
            let from =
                own.isEmpty
                ? "none" : own.count == SoundCue.allCases.count ? "all" : own.map(\.name).joined(separator: ", ")
            let rest = others.isEmpty ? "" : "; built-in: \(others.joined(separator: ", "))"
            logger.notice("sound cues: \(from) from \(overrideFolder.path)\(rest)")
        }
        return bank
    }

    /// `overrides` when it is a folder; otherwise `nil`, with the problem reported (the built-in cues play).
    private static func checkedOverrideFolder(_ overrides: URL?, bank: inout SoundBank, logger: Logger) -> URL? {
        guard let overrides else { return nil }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: overrides.path, isDirectory: &isFolder)
        if exists && isFolder.boolValue { return overrides }
        // Without a word here a mistyped --sounds played the built-in cues as if they were the host's own.
        let names = "\(SoundCue.allCases.first?.fileName ?? "") … \(SoundCue.allCases.last?.fileName ?? "")"
        let reason =
            exists
            ? "is a file, not a folder; name the folder that holds the cue files (\(names)); the built-in cues play"
            : "no such folder; create it with the cue files (\(names)) or correct the path; the built-in cues play"
        let error = SoundFileError(file: overrides.path, reason: reason)
        bank.problems.append(error)
        logger.warning("sound folder skipped: \(error)")
        return nil
    }

    /// Reports each file in `folder` named for a cue in another way (`hint.mp3`, `Tick.wav`) while the cue's own
    /// file is not there: it is not played, and the host would otherwise believe it is.
    private static func reportMisnamedFiles(in folder: URL, bank: inout SoundBank, logger: Logger) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let present = Set(names)
        for name in names.sorted() {
            let stem = (name as NSString).deletingPathExtension.lowercased()
            guard let cue = SoundCue.allCases.first(where: { $0.name == stem }), name != cue.fileName,
                !present.contains(cue.fileName)
            else { continue }
            let error = SoundFileError(
                file: folder.appendingPathComponent(name).path,
                reason: "is not played: cue files are named exactly as the cue; rename it to \(cue.fileName) "
                    + "(any format libsndfile reads keeps the .wav name)")
            bank.problems.append(error)
            logger.warning("sound file skipped: \(error); the built-in one plays instead")
        }
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
        let descriptor = try openRegularFile(file)
        defer { close(descriptor) }
        // libsndfile is handed a copy of the descriptor, and closes it: also when it cannot read the file, whatever it
        // was told (with the descriptor itself, the close here after a failed open closed it a second time, and could
        // close a descriptor another thread had just opened under the same number).
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw SoundFileError(
                file: file.path, reason: "cannot be read: \(FileAccessError.reason(errno: errno)); \(saveAsWAV)")
        }
        var info = SF_INFO()
        guard let handle = sndfile.sf_open_fd(copy, Int32(SFM_READ), &info, 1) else {
            throw SoundFileError(file: file.path, reason: "cannot be read (\(strerror(nil))); \(saveAsWAV)")
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
            throw SoundFileError(
                file: file.path,
                reason: "has \(channels) channels; save it in mono (sox IN -c 1 -r \(sampleRate) OUT.wav)")
        }
        let longest = longestCueSeconds * sampleRate
        var mono: [Int16] = []
        mono.reserveCapacity(info.frames > 0 && info.frames <= longest ? Int(info.frames) : sampleRate)
        let chunkFrames = max(1, 16_384 / channels)
        var chunk = [Int16](repeating: 0, count: chunkFrames * channels)
        // libsndfile reads float and double samples as shorts unscaled (full scale 1.0 becomes 1: a silent cue), so
        // they are read as floats and scaled here.
        let subformat = info.format & Int32(SF_FORMAT_SUBMASK)
        let isFloat = subformat == Int32(SF_FORMAT_FLOAT) || subformat == Int32(SF_FORMAT_DOUBLE)
        var floats = [Float](repeating: 0, count: isFloat ? chunk.count : 0)
        while true {
            let read: sf_count_t
            if isFloat {
                read = floats.withUnsafeMutableBufferPointer { buffer in
                    sndfile.sf_readf_float(handle, buffer.baseAddress, sf_count_t(chunkFrames))
                }
                for index in 0..<max(Int(read), 0) * channels { chunk[index] = sample(fromFloat: floats[index]) }
            } else {
                read = chunk.withUnsafeMutableBufferPointer { buffer in
                    sndfile.sf_readf_short(handle, buffer.baseAddress, sf_count_t(chunkFrames))
                }
            }
            guard read > 0 else { break }
            let frames = Int(read)
            guard mono.count + frames <= longest else {
                throw SoundFileError(
                    file: file.path,
                    reason: "is longer than \(longestCueSeconds) s; a cue should be a moment: shorten it "
                        + "(sox IN -r \(sampleRate) OUT.wav trim 0 \(longestCueSeconds))")
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
            throw SoundFileError(
                file: file.path, reason: "read \(mono.count) frames, then: \(strerror(handle)); \(saveAsWAV)")
        }
        if info.frames >= 0 && info.frames < longest && mono.count < Int(info.frames) {
            throw SoundFileError(
                file: file.path, reason: "ends after \(mono.count) of \(info.frames) frames; \(saveAsWAV)")
        }
        guard !mono.isEmpty else {
            // Most likely an export that failed; a cue meant to be silent is a moment of silence.
            throw SoundFileError(
                file: file.path,
                reason: "holds no samples; \(saveAsWAV), or for a silent cue a moment of silence "
                    + "(sox -n -r \(sampleRate) OUT.wav trim 0 0.01)")
        }
        return mono
    }
}

extension SoundBank {
    /// A float sample (full scale ±1) as a 16-bit one: scaled by 32 768 as libsndfile scales 16-bit samples to floats,
    /// rounded, clipped; NaN is silence.
    static func sample(fromFloat value: Float) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (min(max(value, -1), 1) * 32_768).rounded()
        return scaled >= 32_767 ? .max : Int16(scaled)
    }

    /// What to do with a file libsndfile could not use.
    static let saveAsWAV = "save it as a \(sampleRate) Hz WAV (sox IN -r \(sampleRate) OUT.wav)"

    /// Whether anything is at `file`, a symbolic link to nothing included.
    static func entryExists(_ file: URL) -> Bool {
        var status = stat()
        return lstat(file.path, &status) == 0
    }

    /// Opens `file` for reading, refusing what is not a regular file.
    ///
    /// The open does not wait (`O_NONBLOCK`): a named pipe would otherwise hold up the daemon's start until something
    /// wrote to it. A folder, a pipe, a device (a link to `/dev/zero` or `/dev/urandom`) or a socket is no sound file
    /// libsndfile could use, and an empty file is named as such rather than as a format libsndfile did not recognise.
    static func openRegularFile(_ file: URL) throws(SoundFileError) -> Int32 {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            let what: String
            switch code {
            case EACCES, EPERM: what = "let the daemon's user read it (chmod a+r), or remove it"
            case ENOENT, ELOOP: what = "point the link at a sound file, or remove it"
            default: what = "replace it with a sound file, or remove it"
            }
            throw SoundFileError(
                file: file.path, reason: "cannot be opened: \(FileAccessError.reason(errno: code)); \(what)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw SoundFileError(
                file: file.path, reason: "cannot be read: \(FileAccessError.reason(errno: code)); \(saveAsWAV)")
        }
        let kind: String?
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = status.st_size == 0 ? "is empty (0 bytes)" : nil
        case S_IFDIR: kind = "is a folder, not a sound file"
        case S_IFIFO: kind = "is a named pipe, not a sound file"
        case S_IFCHR, S_IFBLK: kind = "is a device, not a sound file"
        default: kind = "is a socket, not a sound file"
        }
        if let kind {
            close(descriptor)
            throw SoundFileError(file: file.path, reason: "\(kind); put a sound file there: \(saveAsWAV)")
        }
        // A regular file reads the same with or without O_NONBLOCK; cleared all the same for libsndfile.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
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

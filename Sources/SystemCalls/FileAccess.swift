import Foundation

/// A file that could not be read or written, and why, in a person's words ("no such file", "it is a folder,
/// not a file", "permission denied") rather than Foundation's error domains and codes.
public struct FileAccessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    public var path: String
    /// Why, in words.
    public var reason: String
    /// The most bytes a read took, when the file was refused for holding more.
    public var limitExceeded: Int?

    /// Creates an error.
    public init(path: String, reason: String, limitExceeded: Int? = nil) {
        self.path = path
        self.reason = reason
        self.limitExceeded = limitExceeded
    }

    /// Creates an error for `path` from the `errno` a system call set.
    public init(path: String, errno code: Int32) {
        self.init(path: path, reason: Self.reason(errno: code))
    }

    public var description: String { "\(path): \(reason)" }

    /// What an `errno` from opening, reading or writing a file means, said for people.
    public static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder, not a file"
        case ENOTDIR: "a part of the path is not a folder"
        case ENAMETOOLONG: "the path is too long"
        case ELOOP: "the path has too many symbolic links"
        case EROFS: "the file system is read-only"
        case ENOSPC, EDQUOT: "the disk is full"
        case ENXIO, ENODEV: "it is a device or socket, not a file"
        // Standard input or output closed by the caller (`<&-`), held open but unusable (`StandardStreams`).
        case EBADF: "it is closed"
        default: String(cString: strerror(code))
        }
    }
}

/// Reading and writing whole files with errors a person can act on (``FileAccessError``).
public enum FileAccess {
    /// The most bytes ``read(_:limit:)`` takes unless told.
    public static let defaultLimit = 256 << 20

    /// The whole content of the file at `path`. A FIFO with no writer reads as empty unless `waitingForAWriter`, as
    /// `cat` does, which a command run by a person may do and a daemon starting up must not.
    ///
    /// Throws ``FileAccessError``: no such file, permission denied, a folder, a device, or a file larger than
    /// `limit` bytes.
    public static func read(
        _ path: String, limit: Int = defaultLimit, waitingForAWriter: Bool = false
    ) throws(FileAccessError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileAccessError(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileAccessError(path: path, errno: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw FileAccessError(path: path, errno: EISDIR)
        case S_IFREG, S_IFIFO, S_IFCHR: break
        default: throw FileAccessError(path: path, errno: ENXIO)
        }
        if waitingForAWriter, status.st_mode & S_IFMT == S_IFIFO {
            // A read before any writer came finds nothing and takes that for the end. The wait ends when something is
            // written, or when a writer came and went without writing (POLLHUP): then the end is the end.
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&ready, 1, -1) < 0 {
                guard errno == EINTR else { throw FileAccessError(path: path, errno: errno) }
            }
        }
        // A pipe or terminal is read as it comes: blocking again after the open, which must not hang on a FIFO.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try readToTheEnd(descriptor, path: path, limit: limit)
    }

    /// Writes all of `text` to `descriptor`, again after an interrupted or partial write; the `errno` that stopped it
    /// (`ENOSPC`, `EPIPE`, `EBADF`), or `nil` when all of it was written.
    public static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return nil
    }

    /// Reads standard input to its end, refusing more than `limit` bytes (`shaky pack import - < /dev/zero`), a folder
    /// (`< /tmp`) and a closed descriptor with the reason; errors name it "standard input".
    public static func readStandardInput(limit: Int = defaultLimit) throws(FileAccessError) -> Data {
        let name = "standard input"
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0 else { throw FileAccessError(path: name, errno: errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw FileAccessError(path: name, errno: EISDIR) }
        return try readToTheEnd(STDIN_FILENO, path: name, limit: limit)
    }

    private static func readToTheEnd(_ descriptor: Int32, path: String, limit: Int) throws(FileAccessError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileAccessError(path: path, errno: errno)
            }
            guard data.count + count <= limit else {
                throw FileAccessError(path: path, reason: "it is larger than \(limit >> 20) MiB", limitExceeded: limit)
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Writes `data` to `path` as a shell's `>` would, but never leaves a half-written file where a whole one was:
    ///
    /// - a regular file (new, or with no other hard link) is replaced at once when the new one is complete, with
    ///   the old one's permissions (and, where allowed, owner);
    /// - a symbolic link is followed: the file it names is written, and the link stays;
    /// - a FIFO, a device (`/dev/stdout`, a terminal) or a file with other hard links is written in place, since
    ///   replacing it would put a regular file where the device was or part the links;
    /// - every write and the file's sync are checked (a full disk, `/dev/full`, is an error, not "exported").
    ///
    /// Throws ``FileAccessError``: an empty path, a missing folder, permission denied, a folder at `path`, a full disk.
    public static func write(_ data: Data, to path: String) throws(FileAccessError) {
        guard !path.isEmpty else { throw FileAccessError(path: path, reason: "the path is empty") }
        let target = try linkTarget(of: path)
        var status = stat()
        guard stat(target, &status) == 0 else {
            guard errno == ENOENT else { throw FileAccessError(path: path, errno: errno) }
            let folder = folder(of: target)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw FileAccessError(path: path, reason: "there is no folder \(folder)")
            }
            return try replace(target, with: data, keeping: nil, named: path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw FileAccessError(path: path, errno: EISDIR)
        case S_IFREG where status.st_nlink <= 1: try replace(target, with: data, keeping: status, named: path)
        default: try writeInPlace(target, data, named: path)
        }
    }

    /// The path a chain of symbolic links at `path` ends at (`path` itself when it is none; the path of a link's
    /// missing target, to be created, when it names nothing).
    static func linkTarget(of path: String) throws(FileAccessError) -> String {
        var current = path
        // As the kernel, which gives up after 40 links (ELOOP).
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0 else {
                guard errno == ENOENT else { throw FileAccessError(path: path, errno: errno) }
                return current
            }
            guard status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw FileAccessError(path: path, errno: count < 0 ? errno : ENOENT) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : folder(of: current) + "/" + link
        }
        throw FileAccessError(path: path, errno: ELOOP)
    }

    /// The folder holding `path` (`.` for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes `data` to a new file beside `target` and renames it over `target` once it is on the disk, with the
    /// permissions and owner of `old` (the file replaced) when there is one.
    private static func replace(
        _ target: String, with data: Data, keeping old: stat?, named path: String
    ) throws(FileAccessError) {
        let folder = folder(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            temporary = "\(folder)/.\(name).\(getpid()).\(attempt).\(UInt32.random(in: 0...UInt32.max))"
            // 0666 less the umask, as the shell's `>` creates a file.
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw FileAccessError(path: path, errno: errno) }
        var written = false
        defer { if !written { unlink(temporary) } }
        do throws(FileAccessError) {
            if let old {
                // Another user's file stays theirs when root writes it; anyone else cannot give it away (EPERM), and
                // keeps it as their own, as a shell's `>` on a file they may replace would not.
                _ = fchown(descriptor, old.st_uid, old.st_gid)
                guard fchmod(descriptor, old.st_mode & 0o7777) == 0 else {
                    throw FileAccessError(path: path, errno: errno)
                }
            }
            try writeAll(data, to: descriptor, named: path)
            guard fsync(descriptor) == 0 else { throw FileAccessError(path: path, errno: errno) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw FileAccessError(path: path, errno: errno) }
        guard rename(temporary, target) == 0 else { throw FileAccessError(path: path, errno: errno) }
        written = true
        try syncFolder(folder)
    }

    /// Writes `data` into the file, FIFO or device at `target` as it is (truncated first, when it is a file).
    private static func writeInPlace(_ target: String, _ data: Data, named path: String) throws(FileAccessError) {
        let descriptor = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(path: path, errno: errno) }
        do throws(FileAccessError) {
            try writeAll(data, to: descriptor, named: path)
        } catch {
            close(descriptor)
            throw error
        }
        // A terminal or a pipe cannot be synced (EINVAL, EROFS): what it was given is as safe as it gets.
        if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
            let code = errno
            close(descriptor)
            throw FileAccessError(path: path, errno: code)
        }
        guard close(descriptor) == 0 else { throw FileAccessError(path: path, errno: errno) }
    }

    /// Writes every byte of `data` to `descriptor`, going on after a short write or a signal.
    private static func writeAll(_ data: Data, to descriptor: Int32, named path: String) throws(FileAccessError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw FileAccessError(path: path, errno: failure) }
    }

    /// Makes the names in `folder` (a file just created or renamed there) last through a power cut: `fsync` on the
    /// folder itself, which a file's own sync does not cover.
    ///
    /// Throws ``FileAccessError`` when the folder cannot be opened or synced.
    public static func syncFolder(_ folder: String) throws(FileAccessError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(path: folder, errno: errno) }
        defer { close(descriptor) }
        // Some file systems cannot sync a folder (EINVAL): their names are as safe as they get.
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw FileAccessError(path: folder, errno: errno) }
    }

    /// The words for an error Foundation threw about a file: the `errno` underneath when there is one.
    public static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain {
            return FileAccessError.reason(errno: Int32(truncatingIfNeeded: error.code))
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return FileAccessError.reason(errno: Int32(truncatingIfNeeded: underlying.code))
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return FileAccessError.reason(errno: ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return FileAccessError.reason(errno: EACCES)
        case .fileWriteOutOfSpace: return FileAccessError.reason(errno: ENOSPC)
        case .fileWriteFileExists: return "a file is in the way"
        case .fileWriteVolumeReadOnly: return FileAccessError.reason(errno: EROFS)
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the name cannot be used for a file"
        default: return "the file cannot be read or written"
        }
    }
}

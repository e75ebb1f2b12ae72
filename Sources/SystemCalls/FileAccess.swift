import Foundation

/// A file that could not be read or written, and why, in a person's words ("no such file", "it is a folder,
/// not a file", "permission denied") rather than Foundation's error domains and codes.
public struct FileAccessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    public var path: String
    /// Why, in words.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
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
        default: String(cString: strerror(code))
        }
    }
}

/// Reading and writing whole files with errors a person can act on (``FileAccessError``).
public enum FileAccess {
    /// The most bytes ``read(_:limit:)`` takes unless told.
    public static let defaultLimit = 256 << 20

    /// The whole content of the file at `path`.
    ///
    /// Throws ``FileAccessError``: no such file, permission denied, a folder, a device, or a file larger than
    /// `limit` bytes.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(FileAccessError) -> Data {
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
        // A pipe or terminal is read as it comes: blocking again after the open, which must not hang on a FIFO.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
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
                throw FileAccessError(path: path, reason: "it is larger than \(limit >> 20) MiB")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Writes `data` to `path`, replacing the file at once when it is complete (never a half-written file).
    ///
    /// Throws ``FileAccessError``: a missing folder, permission denied, a folder at `path`, a full disk.
    public static func write(_ data: Data, to path: String) throws(FileAccessError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw FileAccessError(path: path, errno: EISDIR)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw FileAccessError(path: path, reason: "there is no folder \(folder)")
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FileAccessError(path: path, reason: reason(error))
        }
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

import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a server cannot listen at a socket path, with what a person can do about it.
public struct VarlinkSocketPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket path.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot listen at \(path): \(reason)" }
}

/// Preparing and restricting the file of a listening Unix socket.
enum UnixSocketFile {
    /// Why Foundation could not make a folder, from the `errno` underneath (never its error domain and code).
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: error.code)))
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: underlying.code)))
        }
        switch error.code {
        case 4, 260: return "a folder on the way there is missing"
        case 257, 513: return "permission denied"
        case 516: return "a file is in the way"
        default: return "it cannot be created there"
        }
    }

    /// Creates the parent directory and removes a stale socket file; refuses to touch anything else.
    static func prepare(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw VarlinkSocketPathError(
                    path: path, reason: "cannot create directory \(directory): \(Self.reason(error))")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw VarlinkSocketPathError(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw VarlinkSocketPathError(path: path, reason: "a file that is not a socket is in the way; remove it")
        }
        switch probe(path: path) {
        case 0:
            throw VarlinkSocketPathError(path: path, reason: "another server is listening there")
        case ECONNREFUSED, ENOENT:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw VarlinkSocketPathError(
                    path: path, reason: "cannot remove the stale socket: \(String(cString: strerror(errno)))")
            }
        case let code:
            throw VarlinkSocketPathError(
                path: path, reason: "cannot tell whether the socket is in use: \(String(cString: strerror(code)))")
        }
    }

    /// Tries to connect to the socket at `path`: 0 when something answers, else the errno.
    static func probe(path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8)
            bytes[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }

    /// Linux's `O_PATH` and `AT_EMPTY_PATH`, which Swift's Glibc module does not export.
    private static let openPathOnly: CInt = 0o10_000_000
    private static let atEmptyPath: CInt = 0x1000

    /// Sets mode 0660 and, when the group exists, gives the socket to it.
    ///
    /// The socket file is opened itself (`O_PATH | O_NOFOLLOW`), never what a link put in its place points
    /// to, and must be a socket owned by this user; mode and group are then set through that descriptor, so a
    /// file swapped in after `bind` is refused rather than made group-writable.
    static func restrict(path: String, group: String?, logger: Logger) throws {
        let descriptor = open(path, openPathOnly | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw VarlinkSocketPathError(
                path: path, reason: "cannot open the bound socket: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, status.st_uid == geteuid() else {
            throw VarlinkSocketPathError(path: path, reason: "the bound socket was replaced by another file")
        }
        // fchmod refuses O_PATH descriptors; the descriptor's /proc link names exactly the inode checked above.
        guard chmod("/proc/self/fd/\(descriptor)", 0o660) == 0 else {
            throw VarlinkSocketPathError(path: path, reason: "chmod 0660 failed: \(String(cString: strerror(errno)))")
        }
        guard let group, let groupID = UserDatabase.groupID(named: group) else { return }
        if fchownat(descriptor, "", uid_t.max, groupID, atEmptyPath) != 0 {
            logger.warning(
                "cannot give \(path) to group \(group): \(String(cString: strerror(errno))); only its owner can connect"
            )
        }
    }
}

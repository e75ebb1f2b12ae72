import Foundation
import Logging
import NIOCore
import SystemCalls

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
package enum UnixSocketFile {
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

    /// The longest socket path the kernel takes, in bytes (`sun_path` less its terminating NUL).
    static let longestPath = UnixSocketAddress.longestPath

    /// Creates the parent directory and removes a stale socket file; refuses to touch anything else.
    static func prepare(path: String) throws {
        guard path.utf8.count <= longestPath else {
            throw VarlinkSocketPathError(
                path: path,
                reason: "the path is \(path.utf8.count) bytes long, and a socket's path can have at most "
                    + "\(longestPath): choose a shorter one")
        }
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
        do {
            try checkSyscall("lstat") { lstat(path, &status) }
        } catch let error where error.code == ENOENT {
            return
        } catch {
            throw VarlinkSocketPathError(path: path, reason: error.reason)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw VarlinkSocketPathError(path: path, reason: "a file that is not a socket is in the way; remove it")
        }
        switch probe(path: path) {
        case nil:
            throw VarlinkSocketPathError(path: path, reason: "another server is listening there")
        case let failure? where failure.code == ECONNREFUSED || failure.code == ENOENT:
            do {
                try checkSyscall("unlink") { unlink(path) }
            } catch let error where error.code == ENOENT {
                return
            } catch {
                throw VarlinkSocketPathError(path: path, reason: "cannot remove the stale socket: \(error.reason)")
            }
        case let failure?:
            throw VarlinkSocketPathError(
                path: path, reason: "cannot tell whether the socket is in use: \(failure.reason)")
        }
    }

    /// Why binding the socket at `path` failed, in words ("permission denied"), never NIO's own description
    /// (`bind(descriptor:ptr:bytes:): Permission denied) (errno: 13)`). A path too long never gets here:
    /// ``prepare(path:)`` refuses it first.
    static func bindFailure(path: String, error: any Error) -> VarlinkSocketPathError {
        guard let error = error as? IOError else { return VarlinkSocketPathError(path: path, reason: "\(error)") }
        return VarlinkSocketPathError(path: path, reason: String(cString: strerror(error.errnoCode)))
    }

    /// Tries to connect to the socket at `path`: `nil` when something answers, else why not.
    package static func probe(path: String) -> SystemCallError? {
        let descriptor: Int32
        do {
            descriptor = try checkSyscall("socket") {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            return error
        }
        defer { closeProbe(descriptor) }
        guard let address = UnixSocketAddress(path: path) else {
            return SystemCallError("connect", code: path.utf8.count > longestPath ? ENAMETOOLONG : EINVAL)
        }
        do {
            try checkSyscall("connect") {
                address.withSocketAddress { connect(descriptor, $0, $1) }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Closes a descriptor opened here; failing to is a bug (it was closed twice), reported in debug builds.
    private static func closeProbe(_ descriptor: Int32) {
        do {
            try closeDescriptor(descriptor)
        } catch {
            assertionFailure("\(error)")
        }
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
        let descriptor: Int32
        do {
            descriptor = try checkSyscall("open") { open(path, openPathOnly | O_NOFOLLOW | O_CLOEXEC) }
        } catch {
            throw VarlinkSocketPathError(path: path, reason: "cannot open the bound socket: \(error.reason)")
        }
        defer { closeProbe(descriptor) }
        var status = stat()
        guard (try? checkSyscall("fstat", { fstat(descriptor, &status) })) != nil, status.st_mode & S_IFMT == S_IFSOCK,
            status.st_uid == geteuid()
        else {
            throw VarlinkSocketPathError(path: path, reason: "the bound socket was replaced by another file")
        }
        // fchmod refuses O_PATH descriptors; the descriptor's /proc link names exactly the inode checked above.
        do {
            try checkSyscall("chmod") { chmod("/proc/self/fd/\(descriptor)", 0o660) }
        } catch {
            throw VarlinkSocketPathError(path: path, reason: "chmod 0660 failed: \(error.reason)")
        }
        guard let group, let groupID = UserDatabase.groupID(named: group) else { return }
        do {
            try checkSyscall("fchownat") { fchownat(descriptor, "", uid_t.max, groupID, atEmptyPath) }
        } catch {
            logger.warning("cannot give \(path) to group \(group): \(error.reason); only its owner can connect")
        }
    }
}

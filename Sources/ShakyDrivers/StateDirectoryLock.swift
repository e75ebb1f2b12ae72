import Foundation
import ShakyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An exclusive `flock` on `shakyd.lock` in the state folder, held while a daemon runs, so that a second daemon
/// on the same folder is refused instead of sharing the database with the first.
///
/// The kernel drops the lock when the process ends, however it ends, so a crashed daemon never leaves a stale one.
public final class StateDirectoryLock: Sendable {
    /// The lock file's name inside the state folder.
    public static let fileName = "shakyd.lock"

    /// The lock file.
    public let path: String
    private let descriptor: Atomic<Int32>

    /// Takes the lock, creating the folder and the lock file when missing.
    ///
    /// Throws ``StateDirectoryLockError`` when another process holds it (naming that process when it can),
    /// or with the errno when the file cannot be opened.
    public init(directory: String) throws(StateDirectoryLockError) {
        path = directory + "/" + Self.fileName
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StateDirectoryLockError(
                directory: directory, problem: "cannot create it: \(FileAccess.reason(error))")
        }
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard opened >= 0 else {
            throw StateDirectoryLockError(
                directory: directory, problem: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(opened)
            guard code == EWOULDBLOCK else {
                throw StateDirectoryLockError(
                    directory: directory, problem: "cannot lock \(path): \(String(cString: strerror(code)))")
            }
            let who = holder.flatMap { Int32($0) }.map { "shakyd (pid \($0))" } ?? "another shakyd"
            throw StateDirectoryLockError(
                directory: directory,
                problem: "\(who) is already using it; stop that daemon, or give this one another --state-dir")
        }
        // Say who holds the lock, for the message a second daemon prints.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(opened, 0) == 0 { _ = pid.withUnsafeBytes { write(opened, $0.baseAddress, $0.count) } }
        descriptor = Atomic(opened)
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        let held = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if held >= 0 { close(held) }
    }

    deinit { release() }
}

/// Why the state folder could not be locked.
public struct StateDirectoryLockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The state folder.
    public var directory: String
    /// What is wrong and what to do.
    public var problem: String

    /// Creates an error.
    public init(directory: String, problem: String) {
        self.directory = directory
        self.problem = problem
    }

    public var description: String { "cannot use the state folder \(directory): \(problem)" }
}

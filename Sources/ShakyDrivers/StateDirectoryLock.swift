import Foundation
import ShakyCore
import Synchronization
import SystemCalls

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
        let path = directory + "/" + Self.fileName
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StateDirectoryLockError(
                directory: directory, problem: "cannot create it: \(FileAccess.reason(error))")
        }
        let opened: Int32
        do {
            opened = try checkSyscall("open") { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        } catch  where error.code == EROFS {
            // A read-only file system: the daemon serves the saved game read-only, and two daemons must still not
            // share the folder. `flock` needs no write access: the lock file as it is, or the folder itself when
            // the file was never made (every daemon on this folder then finds it read-only, and locks the same).
            do {
                opened = try checkSyscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
            } catch  where error.code == ENOENT {
                do {
                    opened = try checkSyscall("open") { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                } catch {
                    throw StateDirectoryLockError(directory: directory, problem: "cannot open it: \(error.reason)")
                }
            } catch {
                throw StateDirectoryLockError(directory: directory, problem: "cannot open \(path): \(error.reason)")
            }
        } catch {
            throw StateDirectoryLockError(directory: directory, problem: "cannot open \(path): \(error.reason)")
        }
        do {
            try checkSyscall("flock") { flock(opened, LOCK_EX | LOCK_NB) }
        } catch {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            Self.close(opened)
            guard error.code == EWOULDBLOCK else {
                throw StateDirectoryLockError(directory: directory, problem: "cannot lock \(path): \(error.reason)")
            }
            let holderID = holder.flatMap { Int32($0) }
            let who = holderID.map { "shakyd (pid \($0))" } ?? "another shakyd"
            throw StateDirectoryLockError(
                directory: directory,
                problem: "\(who) is already using it; stop that daemon, or give this one another --state-dir",
                holder: holderID)
        }
        // Say who holds the lock, for the message a second daemon prints.
        // A lock without the note still locks: the note only names the holder for the refusal message.
        let pid = Array("\(getpid())\n".utf8)
        if (try? checkSyscall("ftruncate", { ftruncate(opened, 0) })) != nil {
            _ = try? checkSyscall("write") { pid.withUnsafeBytes { write(opened, $0.baseAddress, $0.count) } }
        }
        descriptor = Atomic(opened)
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        let held = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if held >= 0 { Self.close(held) }
    }

    /// Closes the lock file; failing to is a bug (closed twice), reported in debug builds.
    private static func close(_ descriptor: Int32) {
        do {
            try closeDescriptor(descriptor)
        } catch {
            assertionFailure("\(error)")
        }
    }

    deinit { release() }
}

/// Why the state folder could not be locked.
public struct StateDirectoryLockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The state folder.
    public var directory: String
    /// What is wrong and what to do.
    public var problem: String
    /// The process that took the lock, when the folder is in use and the lock file names it.
    public var holder: Int32?

    /// Creates an error.
    public init(directory: String, problem: String, holder: Int32? = nil) {
        self.directory = directory
        self.problem = problem
        self.holder = holder
    }

    public var description: String { "cannot use the state folder \(directory): \(problem)" }
}

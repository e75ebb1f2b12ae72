import Foundation
import GRDB

/// The connection an ``AppDatabase`` goes through: the usual writable one, or, when the database could not be
/// opened for writing (a full disk, a read-only file system), a read-only one that is swapped for a writable one
/// as soon as opening one works again.
///
/// The writable connection never changes once it is in place, so using it takes one short lock. While read-only,
/// every use holds a second lock, so the switch never closes a connection that a read is still using.
final class DatabaseConnection: @unchecked Sendable {
    /// Opens a writable connection: the schema upgraded, the built-in packs installed.
    typealias WritableOpener = @Sendable () throws -> any DatabaseWriter

    private enum Mode {
        case writable(any DatabaseWriter)
        case readOnly(ReadOnly)
    }

    /// The read-only connection and how to open it again.
    private struct ReadOnly {
        /// `nil` after it was closed to try writing and could not be opened again (out of descriptors, say): the
        /// next use opens it again.
        var queue: DatabaseQueue?
        let path: String
        let configuration: Configuration
        var reason: StoreError
        let openWritable: WritableOpener

        mutating func openQueue() throws -> DatabaseQueue {
            if let queue { return queue }
            let reopened = try DatabaseQueue(path: path, configuration: configuration)
            queue = reopened
            return reopened
        }
    }

    /// Guards `mode`.
    private let modeLock = NSLock()
    private var mode: Mode
    /// Held for every use of the read-only connection and for the switch.
    private let readOnlyLock = NSLock()

    /// A writable connection, for good.
    init(writable writer: any DatabaseWriter) {
        mode = .writable(writer)
    }

    /// A read-only connection, opened because of `reason`; `openWritable` is tried again before each write.
    init(readOnly queue: DatabaseQueue, because reason: StoreError, openWritable: @escaping WritableOpener) {
        mode = .readOnly(
            ReadOnly(
                queue: queue, path: queue.path, configuration: queue.configuration, reason: reason,
                openWritable: openWritable))
    }

    /// Why the database is read-only, or `nil` when it is writable.
    var readOnlyReason: StoreError? {
        modeLock.lock()
        defer { modeLock.unlock() }
        if case .readOnly(let readOnly) = mode { return readOnly.reason }
        return nil
    }

    /// The connection in use now; while read-only, one that a failed switch left closed is opened again.
    var writer: any DatabaseWriter {
        get throws {
            if let writer = writableWriter() { return writer }
            readOnlyLock.lock()
            defer { readOnlyLock.unlock() }
            return try writableWriter() ?? readOnlyQueue()
        }
    }

    /// Runs `value` in a read transaction.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        if let writer = writableWriter() { return try writer.read(value) }
        readOnlyLock.lock()
        defer { readOnlyLock.unlock() }
        if let writer = writableWriter() { return try writer.read(value) }
        return try readOnlyQueue().read(value)
    }

    /// The read-only connection, if it is open.
    private func readOnlyQueueIfOpen() -> DatabaseQueue? {
        modeLock.lock()
        defer { modeLock.unlock() }
        if case .readOnly(let readOnly) = mode { return readOnly.queue }
        return nil
    }

    /// With `readOnlyLock` held and read-only: the read-only connection, opened again if a failed switch closed it.
    private func readOnlyQueue() throws -> DatabaseQueue {
        modeLock.lock()
        defer { modeLock.unlock() }
        guard case .readOnly(var readOnly) = mode else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database is not read-only")
        }
        let queue = try readOnly.openQueue()
        mode = .readOnly(readOnly)
        return queue
    }

    /// Runs `updates` in a write transaction; while read-only, first tries to open a writable connection, and
    /// throws why the database is read-only when that still fails.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let writer = writableWriter() { return try writer.write(updates) }
        readOnlyLock.lock()
        defer { readOnlyLock.unlock() }
        return try becomeWritable().write(updates)
    }

    /// Runs `updates` in a write transaction whose commit does not wait for the disk (see
    /// ``SaveDurability/written``); otherwise as ``write(_:)``.
    func writeWithoutSync<T>(_ updates: (Database) throws -> T) throws -> T {
        if let writer = writableWriter() { return try Self.writeWithoutSync(with: writer, updates) }
        readOnlyLock.lock()
        defer { readOnlyLock.unlock() }
        return try Self.writeWithoutSync(with: becomeWritable(), updates)
    }

    /// One transaction with `synchronous = NORMAL`, which SQLite lets change only between transactions; the
    /// connection's own setting is put back after it, whatever happened.
    private static func writeWithoutSync<T>(
        with writer: any DatabaseWriter, _ updates: (Database) throws -> T
    ) throws -> T {
        try writer.writeWithoutTransaction { db in
            let usual = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            defer { try? db.execute(sql: "PRAGMA synchronous = \(usual)") }
            var result: T?
            try db.inTransaction {
                result = try updates(db)
                return .commit
            }
            guard let result else { throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "no result") }
            return result
        }
    }

    /// Closes the connection in use: the last connection to close folds the write-ahead log into the file and
    /// deletes it. Every later use throws.
    func close() throws {
        readOnlyLock.lock()
        defer { readOnlyLock.unlock() }
        guard let current = writableWriter() ?? readOnlyQueueIfOpen() else { return }
        // A pool closes its writer first, and its readers, opened read-only, cannot fold the log in when the last of
        // them closes: release them (closing them) first, so the writer is the last.
        (current as? DatabasePool)?.releaseMemory()
        try current.close()
    }

    private func writableWriter() -> (any DatabaseWriter)? {
        modeLock.lock()
        defer { modeLock.unlock() }
        if case .writable(let writer) = mode { return writer }
        return nil
    }

    /// With `readOnlyLock` held: the writable connection, opening it in place of the read-only one if it can be
    /// opened now.
    private func becomeWritable() throws -> any DatabaseWriter {
        modeLock.lock()
        let current = mode
        modeLock.unlock()
        guard case .readOnly(var readOnly) = current else { return try writer }
        // The read-only connection holds the file's lock (exclusive locking mode): close it to try.
        try? readOnly.queue?.close()
        readOnly.queue = nil
        let writable: any DatabaseWriter
        do {
            writable = try readOnly.openWritable()
        } catch {
            readOnly.reason = (error as? StoreError).flatMap(\.readOnlyReason) ?? readOnly.reason
            // Opened again now, or (when that fails too) at the next use: never left closed.
            _ = try? readOnly.openQueue()
            modeLock.lock()
            mode = .readOnly(readOnly)
            modeLock.unlock()
            throw error
        }
        modeLock.lock()
        mode = .writable(writable)
        modeLock.unlock()
        return writable
    }
}

extension StoreError {
    /// Whether this failure to write leaves the database readable (a full disk, a file system mounted read-only),
    /// so that a daemon may serve it read-only: returns itself then, `nil` otherwise.
    var readOnlyReason: StoreError? {
        switch self {
        case .diskFull, .notWritable: self
        default: nil
        }
    }
}

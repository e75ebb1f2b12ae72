import Foundation
import GRDB
import ShakyCore

/// The one Shaky Words database: quiz packs, the current game snapshot and the history of finished games.
///
/// Open it once per process with ``open(path:builtinPacks:)``; tests use ``inMemory(builtinPacks:)``.
/// Creating it runs the schema migrations, so an old database file is upgraded on open. Every public
/// method is one transaction that keeps the store's rules (built-in packs are read-only, pack names are
/// unique ignoring case, a finished game is recorded together with its snapshot), so a failure changes
/// nothing.
public final class AppDatabase: Sendable {
    /// The connection (pool or queue) every read and write goes through.
    let writer: any DatabaseWriter
    /// The database file's path, as shown in error messages (`:memory:` for an in-memory database).
    public let path: String

    /// Where the built-in packs are installed from when the database opens.
    public enum BuiltinPackSource: Sendable {
        /// The installed data folder, found with `InstallLayout` (or `SHAKY_DATA_DIR`).
        case installed
        /// The pack files in this folder.
        case directory(URL)
        /// Do not install built-in packs.
        case skip
    }

    /// Wraps `writer`, upgrading its schema to the current version.
    ///
    /// - Throws: ``StoreError/newerDatabase(path:)`` when the file was written by a newer version.
    init(writer: any DatabaseWriter, path: String) throws {
        self.writer = writer
        self.path = path
        let migrator = Self.migrator
        try mapDatabaseErrors {
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.newerDatabase(path: path)
            }
            try migrator.migrate(writer)
        }
    }

    /// Opens (or creates) the database file at `path` and installs the built-in packs.
    ///
    /// The parent folder is created if needed. The file uses write-ahead logging, enforces foreign keys
    /// and waits up to five seconds for a lock held by another connection.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)``, ``StoreError/notWritable(path:reason:)``,
    ///   ``StoreError/corrupt(path:reason:)``, ``StoreError/diskFull(path:)``,
    ///   ``StoreError/newerDatabase(path:)``, or an error from installing the built-in packs.
    public static func open(path: String, builtinPacks: BuiltinPackSource = .installed) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(
                path: path, reason: "the folder \(folder.path) cannot be created (\(error.localizedDescription))")
        }
        var configuration = Configuration()
        configuration.label = "ShakyStore"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // One reader beside the writer: the daemon's reads are short, and each connection keeps a page cache.
        configuration.maximumReaderCount = 1
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw openError(for: error, path: path, folder: folder)
        }
        let database = try AppDatabase(writer: pool, path: path)
        try database.installBuiltinPacks(from: builtinPacks)
        return database
    }

    /// Creates an empty database in memory, for tests and previews.
    public static func inMemory(builtinPacks: BuiltinPackSource = .skip) throws -> AppDatabase {
        var configuration = Configuration()
        configuration.label = "ShakyStore"
        configuration.foreignKeysEnabled = true
        let database = try AppDatabase(writer: DatabaseQueue(configuration: configuration), path: ":memory:")
        try database.installBuiltinPacks(from: builtinPacks)
        return database
    }

    private func installBuiltinPacks(from source: BuiltinPackSource) throws {
        switch source {
        case .skip:
            return
        case .directory(let folder):
            try installBuiltinPacks(from: folder)
        case .installed:
            guard let folder = InstallLayout.directory(for: .builtinPacks) else {
                throw StoreError.builtinPacksNotFound(
                    searched: "SHAKY_DATA_DIR/packs, PREFIX/share/shaky/packs and Sources/ShakyStore/BuiltinPacks")
            }
            try installBuiltinPacks(from: folder)
        }
    }

    // MARK: Transactions

    /// Runs `updates` in one write transaction, turning storage failures into ``StoreError``.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try mapDatabaseErrors { try writer.write(updates) }
    }

    /// Runs `value` in one read transaction, turning storage failures into ``StoreError``.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try mapDatabaseErrors { try writer.read(value) }
    }

    private func mapDatabaseErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw Self.storeError(for: error, path: path, folder: nil) ?? error
        }
    }

    private static func openError(for error: DatabaseError, path: String, folder: URL?) -> StoreError {
        storeError(for: error, path: path, folder: folder)
            ?? .cannotOpen(path: path, reason: error.message ?? "\(error)")
    }

    /// The ``StoreError`` for a storage-level failure, or `nil` when `error` is not one (a constraint, say).
    private static func storeError(for error: DatabaseError, path: String, folder: URL?) -> StoreError? {
        let message = error.message ?? "\(error)"
        switch error.resultCode {
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_READONLY:
            return .notWritable(path: path, reason: message)
        case .SQLITE_IOERR:
            return .notWritable(path: path, reason: "input/output error (\(message))")
        case .SQLITE_CANTOPEN, .SQLITE_PERM:
            if let folder, !FileManager.default.isWritableFile(atPath: folder.path) {
                return .cannotOpen(path: path, reason: "the folder \(folder.path) is not writable")
            }
            return .cannotOpen(path: path, reason: message)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(path: path, reason: message)
        default:
            return nil
        }
    }
}

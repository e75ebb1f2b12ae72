import Foundation
import GRDB
import ShakyCore
import SystemCalls

/// The one Shaky Words database: quiz packs, the current game snapshot and the history of finished games.
///
/// Open it once per process with ``open(path:builtinPacks:)``; tests use ``inMemory(builtinPacks:)``.
/// Creating it runs the schema migrations, so an old database file is upgraded on open. Every public
/// method is one transaction that keeps the store's rules (built-in packs are read-only, pack names are
/// unique ignoring case, a finished game is recorded together with its snapshot), so a failure changes
/// nothing.
public final class AppDatabase: Sendable {
    /// The connection every read and write goes through.
    private let connection: DatabaseConnection
    /// The connection (pool or queue) in use now.
    var writer: any DatabaseWriter { get throws { try connection.writer } }
    /// The database file's path, as shown in error messages (`:memory:` for an in-memory database).
    public let path: String
    /// The game snapshot's JSON text, with the questions of the game in play kept between saves.
    let snapshotJSON = GameSnapshotJSON()

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
        connection = DatabaseConnection(writable: writer)
        self.path = path
        let migrator = Self.migrator
        try mapDatabaseErrors {
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.newerDatabase(path: path)
            }
            // Tables but no migration applied: another program's database, whose first table of the same name as
            // ours stopped the first migration with its whole SQL text as the message (and left an empty
            // grdb_migrations table behind, so the next start finds that too).
            let foreign = try writer.read { db in
                let tables =
                    try Int.fetchOne(
                        db,
                        sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                            + "AND name != 'grdb_migrations'") ?? 0
                return try tables > 0 && migrator.appliedIdentifiers(db).isEmpty
            }
            if foreign { throw StoreError.corrupt(path: path, reason: "it holds another program's tables") }
            try migrator.migrate(writer)
        }
    }

    /// Wraps a connection to a database whose schema is up to date.
    private init(connection: DatabaseConnection, path: String) {
        self.connection = connection
        self.path = path
    }

    /// Why the database is read-only (opened with `readOnlyWhenNotWritable` on a full disk or a read-only file
    /// system), or `nil` when changes are saved.
    ///
    /// While it is read-only, every change first tries to open the file for writing again: once that works (space
    /// was freed), the database is writable for good and this is `nil`; until then the change throws this reason.
    public var readOnlyReason: StoreError? { connection.readOnlyReason }

    /// Closes the database for good, on the way out: the write-ahead log is folded into the file and deleted, so
    /// what is saved is all in `shaky.sqlite` when the process ends. Every later read or write throws.
    public func close() throws {
        try connection.close()
    }

    /// Opens (or creates) the database file at `path` and installs the built-in packs.
    ///
    /// The parent folder is created if needed. The file uses write-ahead logging, enforces foreign keys
    /// and waits up to five seconds for a lock held by another connection.
    ///
    /// - Parameters:
    ///   - readOnlyWhenNotWritable: when the file exists but cannot be written (a full disk, a read-only file
    ///     system), open it read-only instead of failing (see ``readOnlyReason``). The read-only connection holds
    ///     the file's lock, so use it only in a process that owns the database (the daemon).
    ///   - skippedBuiltinPack: told of each built-in pack file that was skipped, and why
    ///     (``installBuiltinPacks(from:skipped:)``).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)``, ``StoreError/notWritable(path:reason:)``,
    ///   ``StoreError/corrupt(path:reason:)``, ``StoreError/diskFull(path:)``,
    ///   ``StoreError/newerDatabase(path:)``, ``StoreError/builtinPacksNotFound(searched:)``.
    public static func open(
        path: String, builtinPacks: BuiltinPackSource = .installed, readOnlyWhenNotWritable: Bool = false,
        skippedBuiltinPack: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(
                path: path, reason: "the folder \(folder.path) cannot be created (\(FileAccess.reason(error)))")
        }
        try checkPages(path: path)
        let openWritable: DatabaseConnection.WritableOpener = {
            try writableConnection(
                path: path, folder: folder, builtinPacks: builtinPacks, skippedBuiltinPack: skippedBuiltinPack)
        }
        do {
            return AppDatabase(connection: DatabaseConnection(writable: try openWritable()), path: path)
        } catch let error as StoreError {
            guard readOnlyWhenNotWritable, let reason = error.readOnlyReason,
                FileManager.default.fileExists(atPath: path)
            else { throw error }
            let queue = try readOnlyConnection(path: path, folder: folder, reason: reason)
            return AppDatabase(
                connection: DatabaseConnection(readOnly: queue, because: reason, openWritable: openWritable), path: path
            )
        }
    }

    /// Reads every page of the file at `path` once (`PRAGMA quick_check`), through a connection that writes nothing:
    /// a file damaged past its first page opens without a word, and would fail only when a later call reads the
    /// damaged part. A read-only connection folds no log into the file and deletes none as it closes, so a damaged
    /// file and its log stay as they were. For a party's database, a few megabytes at most, this takes milliseconds.
    ///
    /// Any other failure (no file yet, permissions, a read-only file system) is left to the open that follows, which
    /// says it as it always has.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` naming the first problems found.
    private static func checkPages(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var configuration = Configuration()
        configuration.label = "ShakyStore (check)"
        configuration.readonly = true
        // Read through a small cache: the check reads every page once, and would otherwise keep up to 2 MiB of them.
        configuration.prepareDatabase { db in try db.execute(sql: pageCachePragma) }
        let problems: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            problems = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                throw StoreError.corrupt(path: path, reason: error.message ?? "\(error)")
            default: return
            }
        }
        guard problems != ["ok"] else { return }
        throw StoreError.corrupt(path: path, reason: problems.joined(separator: "; "))
    }

    /// The most each connection keeps of the file in memory: 512 KiB. SQLite's default, 2 MiB a connection, let a
    /// daemon that had played for a long party hold the whole history twice (its heap grew with the file, 1.8 MiB
    /// in 1 000 games, `make bench-soak`); a page read again comes from the kernel's page cache.
    static let pageCachePragma = "PRAGMA cache_size = -512"

    /// Opens the file for reading and writing, upgrades its schema and installs the built-in packs.
    private static func writableConnection(
        path: String, folder: URL, builtinPacks: BuiltinPackSource, skippedBuiltinPack: (StoreError) -> Void
    ) throws -> any DatabaseWriter {
        // SQLite opens a file it cannot write read-only without a word when its log files are there: said here, so
        // that the daemon serves it read-only knowingly.
        if isMountedReadOnly(folder.path) { throw StoreError.notWritable(path: path, reason: readOnlyMount(folder)) }
        var configuration = Configuration()
        configuration.label = "ShakyStore"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // One reader beside the writer: the daemon's reads are short, and each connection keeps a page cache.
        configuration.maximumReaderCount = 1
        configuration.prepareDatabase { db in try db.execute(sql: pageCachePragma) }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB sets a pool's connections to `synchronous = NORMAL`, which syncs the write-ahead log only at
            // checkpoints: a power cut, the usual way to turn a Pi off, could take back the last seconds of
            // writes. The writer syncs the log at every commit instead (``SaveDurability``).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        } catch let error as DatabaseError {
            throw openError(for: error, path: path, folder: folder)
        }
        do {
            let database = try AppDatabase(writer: pool, path: path)
            try database.installBuiltinPacks(from: builtinPacks, skipped: skippedBuiltinPack)
        } catch {
            // Closed before this returns, not whenever the pool is freed: a damaged file is then moved aside
            // (``setAsideDamagedFile(at:time:)``) with no connection left to it.
            try? pool.close()
            throw error
        }
        return pool
    }

    /// Opens the file without writing to it: exclusive locking mode keeps the write-ahead log's index in memory
    /// (no `-shm` file to grow), and `query_only` refuses writes. Its schema must be up to date, since it cannot be
    /// upgraded.
    private static func readOnlyConnection(path: String, folder: URL, reason: StoreError) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "ShakyStore (read-only)"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // On a file system mounted read-only SQLite cannot make the write-ahead log's files that reading a WAL
        // database asks for; opened `immutable` (no locks, no log: nothing can change it there) it reads the file as
        // it is. A log left by a daemon that did not stop cleanly holds the latest saves, though: with it and its
        // index there, SQLite reads them (shared locking: an exclusive lock cannot be taken on them there). URI file
        // names are on in Debian's SQLite (`SQLITE_USE_URI`), which GRDB's open flags rely on here.
        var location = path
        var locking = "PRAGMA locking_mode = EXCLUSIVE; "
        if isMountedReadOnly(folder.path) {
            configuration.readonly = true
            locking = ""
            let logged = ["-wal", "-shm"].allSatisfy { FileManager.default.fileExists(atPath: path + $0) }
            if !logged { location = "file:\(uriEscaped(path))?immutable=1" }
        }
        configuration.prepareDatabase { [locking] db in
            try db.execute(sql: locking + "PRAGMA query_only = 1; " + pageCachePragma)
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: location, configuration: configuration)
        } catch let error as DatabaseError {
            throw openError(for: error, path: path, folder: folder)
        }
        let migrator = Self.migrator
        let (superseded, upToDate) = try queue.read { db in
            (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
        }
        if superseded { throw StoreError.newerDatabase(path: path) }
        // A schema this version must upgrade cannot be read as it is.
        guard upToDate else { throw reason }
        return queue
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

    private func installBuiltinPacks(
        from source: BuiltinPackSource, skipped: (StoreError) -> Void = { _ in }
    ) throws {
        switch source {
        case .skip:
            return
        case .directory(let folder):
            try installBuiltinPacks(from: folder, skipped: skipped)
        case .installed:
            guard let folder = InstallLayout.directory(for: .builtinPacks) else {
                throw StoreError.builtinPacksNotFound(searched: Self.builtinPackPlaces())
            }
            try installBuiltinPacks(from: folder, skipped: skipped)
        }
    }

    /// The folders the built-in packs are looked for in, as a message names them: "/srv/data/packs (SHAKY_DATA_DIR)
    /// and /usr/share/shaky/packs".
    static func builtinPackPlaces(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = InstallLayout.runningExecutable
    ) -> String {
        let override = environment["SHAKY_DATA_DIR"].map { !$0.isEmpty } ?? false
        let places = InstallLayout.places(for: .builtinPacks, environment: environment, executable: executable)
        return places.enumerated().map { index, place in
            place.standardizedFileURL.path + (override && index == 0 ? " (SHAKY_DATA_DIR)" : "")
        }.spokenList("and")
    }

    // MARK: Transactions

    /// Runs `updates` in one write transaction, turning storage failures into ``StoreError``.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try mapDatabaseErrors { try connection.write(updates) }
    }

    /// ``write(_:)``, with the commit going as far as `durability` says before it returns.
    func write<T>(_ durability: SaveDurability, _ updates: (Database) throws -> T) throws -> T {
        switch durability {
        case .disk: try write(updates)
        case .written: try mapDatabaseErrors { try connection.writeWithoutSync(updates) }
        }
    }

    /// Runs `value` in one read transaction, turning storage failures into ``StoreError``.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try mapDatabaseErrors { try connection.read(value) }
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
            let folder = folder ?? URL(fileURLWithPath: path).deletingLastPathComponent()
            if let owner = otherOwner(of: path) { return .notWritable(path: path, reason: owner) }
            return .notWritable(path: path, reason: isMountedReadOnly(folder.path) ? readOnlyMount(folder) : message)
        case .SQLITE_IOERR:
            // Growing the `-shm` file of a full file system fails as an I/O error.
            if isFileSystemFull(holding: path) { return .diskFull(path: path) }
            // So does a log file another user made (`sudo shakyd` run once on the service's state folder).
            if let owner = otherOwner(of: path) { return .notWritable(path: path, reason: owner) }
            return .notWritable(path: path, reason: "input/output error (\(message))")
        case .SQLITE_CANTOPEN, .SQLITE_PERM:
            if let folder, isMountedReadOnly(folder.path) {
                // Readable as it is: the daemon serves it read-only (a Pi's card remounted read-only after errors).
                return .notWritable(path: path, reason: readOnlyMount(folder))
            }
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

    /// `path` for a `file:` URI: every byte but unreserved ones and `/` percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                escaped.unicodeScalars.append("%")
                escaped.unicodeScalars.append(hex[Int(byte >> 4)])
                escaped.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return escaped
    }

    /// Why a database in `folder` cannot be written, when its file system is mounted read-only.
    private static func readOnlyMount(_ folder: URL) -> String {
        "the file system holding \(folder.path) is read-only"
    }

    /// Which of the database's files (itself, its write-ahead log and its index) this process may not write because
    /// another user owns it, said with what to do; `nil` when none.
    private static func otherOwner(of path: String) -> String? {
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_uid != geteuid(), access(file, W_OK) != 0 else { continue }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return "\(file) belongs to user \(status.st_uid), and this process runs as user \(geteuid()); give the "
                + "folder's files to the daemon's user (`sudo chown -R shaky: \(folder)` for the service)"
        }
        return nil
    }

    /// Whether the file system holding `folder` is mounted read-only.
    private static func isMountedReadOnly(_ folder: String) -> Bool {
        var status = statvfs()
        guard statvfs(folder, &status) == 0 else { return false }
        return status.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether the file system holding `path` has no block left that this process may use.
    private static func isFileSystemFull(holding path: String) -> Bool {
        var status = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &status) == 0 else { return false }
        return status.f_bavail == 0
    }
}

import Foundation
import SystemCalls

// A damaged database file, set aside so that a new one can be made in its place.
extension AppDatabase {
    /// What a database holds that a new one starts without, said for the log and for the host: the built-in packs
    /// come back in a new database.
    public static let contentLostWithDamagedFile =
        "the imported packs, the history of finished games, the game in play, the sound and shake settings, "
        + "the buzzer button assignments and the sensor calibrations"

    /// Moves the database file at `path`, which ``open(path:builtinPacks:readOnlyWhenNotWritable:)`` found damaged
    /// (``StoreError/corrupt(path:reason:)``), out of the way with its write-ahead log and its index:
    /// `shaky.sqlite` becomes `damaged-database-20261127T203015Z.sqlite` beside it (the time in UTC, numbered
    /// `…Z-2.sqlite` rather than replacing an earlier file: ``SetAsideFileName``), and `-wal` and `-shm` follow it
    /// under that name. Nothing in them is changed, so what can still be read of them is kept (`sqlite3 FILE
    /// .dump`), and the next open makes a new database.
    ///
    /// Open no connection to the file while this runs: SQLite finds the log of a connection by the database's name.
    ///
    /// - Returns: where the database file went.
    /// - Throws: ``StoreError/notWritable(path:reason:)`` when a file cannot be moved (a read-only file system, a
    ///   folder this process may not write); the files are then where they were.
    public static func setAsideDamagedFile(at path: String, time: Date = Date()) throws -> URL {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let companions = ["-wal", "-shm"]
        let setAside = SetAsideFileName.unused(
            in: folder, prefix: "damaged-database", fileExtension: "sqlite", at: time, companionSuffixes: companions)
        // The log and its index first, the database last: a power cut in between leaves the damaged database in
        // place, to be set aside at the next start, rather than a new database beside the old one's log, which SQLite
        // would replay into it.
        let moves = companions.map { (path + $0, setAside.path + $0) } + [(path, setAside.path)]
        var moved: [(from: String, to: String)] = []
        for (from, to) in moves where FileManager.default.fileExists(atPath: from) {
            do {
                try FileManager.default.moveItem(atPath: from, toPath: to)
                moved.append((from, to))
            } catch {
                for done in moved.reversed() { try? FileManager.default.moveItem(atPath: done.to, toPath: done.from) }
                throw StoreError.notWritable(
                    path: path, reason: "it cannot be moved to \(to) (\(FileAccess.reason(error)))")
            }
        }
        // The new names are in the folder for good before a new database is made in place of the old one.
        do {
            try FileAccess.syncFolder(folder.path)
        } catch {
            throw StoreError.notWritable(path: path, reason: error.reason)
        }
        return setAside
    }
}

import Foundation
import Logging
import ShakyStore

extension Daemon {
    /// The database the daemon starts with, and the damaged file it set aside to start, if it did.
    struct OpenedDatabase {
        let database: AppDatabase
        /// Where the damaged database went (``AppDatabase/setAsideDamagedFile(at:time:)``), or `nil`.
        let damagedFile: URL?
    }

    /// Opens the database at `path`, read-only on a full disk or a read-only file system.
    ///
    /// A file that is damaged or not a Shaky Words database (``StoreError/corrupt(path:reason:)``) is set aside,
    /// with its write-ahead log and index, and a new database is made in its place, as journald does with a damaged
    /// journal: an appliance at a party must start by itself. The error log says what was wrong, where the file went
    /// and what the daemon starts without. Any other failure (permissions, a full disk, a database of a newer
    /// version) stops the start as it is, and so does a damaged file that cannot be moved (a read-only file system).
    ///
    /// A built-in pack file that cannot be installed is skipped, and the error log names it and its problem: the
    /// daemon serves the other packs (and the pack an earlier start installed from that file).
    static func openDatabase(path: String, logger: Logger) throws -> OpenedDatabase {
        let skipped: @Sendable (StoreError) -> Void = { error in
            logger.error("a built-in pack was skipped: \(error)")
        }
        do {
            return OpenedDatabase(
                database: try AppDatabase.open(path: path, readOnlyWhenNotWritable: true, skippedBuiltinPack: skipped),
                damagedFile: nil)
        } catch StoreError.corrupt(let path, let reason) {
            let damagedFile: URL
            do {
                damagedFile = try AppDatabase.setAsideDamagedFile(at: path, time: Date())
            } catch {
                logger.error(
                    "the database is damaged, and cannot be set aside to start with a new one",
                    metadata: ["problem": "\(reason)", "error": "\(error)"])
                throw StoreError.corrupt(path: path, reason: reason)
            }
            logger.error(
                """
                the database was damaged and is set aside; the daemon starts with a new one, without \
                \(AppDatabase.contentLostWithDamagedFile), which stay in the file set aside (the built-in packs \
                come back)
                """,
                metadata: ["problem": "\(reason)", "file": "\(damagedFile.path)"])
            return OpenedDatabase(
                database: try AppDatabase.open(path: path, readOnlyWhenNotWritable: true, skippedBuiltinPack: skipped),
                damagedFile: damagedFile)
        }
    }
}

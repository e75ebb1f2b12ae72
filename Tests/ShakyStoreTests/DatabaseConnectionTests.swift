import Foundation
import GRDB
import Testing

@testable import ShakyStore

/// The read-only connection a daemon serves from when the database cannot be written: every write first tries a
/// writable connection, closing the read-only one to do so, and the read-only one is never left closed.
@Suite struct DatabaseConnectionTests {
    @Test("A read-only connection that cannot be opened again after a refused write is opened at the next read")
    func aReadOnlyConnectionIsNeverLeftClosed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-connection-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shaky.sqlite").path
        try AppDatabase.open(path: path, builtinPacks: .skip).createPack(named: "Kept")

        let full = StoreError.diskFull(path: path)
        let connection = DatabaseConnection(
            readOnly: try DatabaseQueue(path: path), because: full, openWritable: { throw full })
        let packCount = { (db: Database) in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pack") ?? -1 }
        #expect(try connection.read(packCount) == 1)

        // The write is refused, and the read-only connection cannot be opened again: its file is not there
        // (a folder stands in its place, which SQLite cannot open).
        let aside = path + ".aside"
        try FileManager.default.moveItem(atPath: path, toPath: aside)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: StoreError.self) { try connection.write { db in try db.execute(sql: "DELETE FROM pack") } }
        #expect(throws: DatabaseError.self) { try connection.read(packCount) }
        #expect(connection.readOnlyReason == full)

        // Once it can be opened, reads work again (the connection was not left closed for good).
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: aside, toPath: path)
        #expect(try connection.read(packCount) == 1)
        #expect(throws: StoreError.self) { try connection.write { db in try db.execute(sql: "DELETE FROM pack") } }
        #expect(try connection.read(packCount) == 1)
        try connection.close()
    }

    @Test("Each connection to the file keeps at most 512 KiB of it in memory, the writer and the reader alike")
    func eachConnectionKeepsASmallPageCache() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-cache-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(
            path: folder.appendingPathComponent("shaky.sqlite").path, builtinPacks: .skip)
        let cacheSize = { (db: Database) in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(try database.write(cacheSize) == -512)
        #expect(try database.read(cacheSize) == -512)
    }
}

import GRDB

/// A row of the `pack` table.
struct PackRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "pack"

    var id: Int64?
    var name: String
    var isBuiltin: Bool
    /// The built-in pack's stable identifier (its file's `id`), `nil` for a custom pack.
    var builtinId: String?
    /// The version of the built-in pack file last installed, `nil` for a custom pack.
    var builtinVersion: Int?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let builtinId = Column(CodingKeys.builtinId)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// A new custom pack.
    static func custom(named name: String) -> PackRecord {
        PackRecord(id: nil, name: name, isBuiltin: false, builtinId: nil, builtinVersion: nil)
    }

    /// The pack whose name equals `name` ignoring case (full Unicode case folding), if any.
    static func find(named name: String, in db: Database) throws -> PackRecord? {
        let key = PackRecord.nameKey(name)
        // NOCASE narrows ASCII names quickly; the loop handles names whose case differs outside ASCII.
        if let exact = try PackRecord.filter(Columns.name == name).fetchOne(db) {
            return exact
        }
        return try PackRecord.fetchAll(db).first { PackRecord.nameKey($0.name) == key }
    }

    /// The form of a pack name used to compare names ignoring case.
    static func nameKey(_ name: String) -> String {
        name.folding(options: .caseInsensitive, locale: nil)
    }
}

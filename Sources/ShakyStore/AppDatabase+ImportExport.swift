import Foundation
import GRDB
import TriviaEngine

// Packs to and from files (see ``PackFileFormat`` for the formats).
extension AppDatabase {
    /// Imports a pack file as a new custom pack, all or nothing.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - format: JSON or CSV.
    ///   - name: the new pack's name; when `nil`, the name inside a JSON file. A CSV file needs one.
    /// - Throws: ``StoreError/importFailed(problems:unlisted:)`` naming the bad questions or where the file stops,
    ///   ``StoreError/duplicatePackName(_:)``, ``StoreError/invalidPackName(_:problem:)``. On any error
    ///   nothing is imported. A pack whose JSON export would be larger than ``PackRules/largestPackFile`` is
    ///   refused, so that every pack exports, in every format, to a file that imports back.
    @discardableResult
    public func importPack(_ data: Data, format: PackFileFormat, name: String? = nil) throws -> PackSummary {
        try importPackWithWarnings(data, format: format, name: name).pack
    }

    /// Imports a pack like ``importPack(_:format:name:)`` and also returns what was accepted but looks
    /// wrong: repeated questions, ignored columns.
    public func importPackWithWarnings(
        _ data: Data, format: PackFileFormat, name: String? = nil
    ) throws -> (pack: PackSummary, warnings: [String]) {
        let file = try PackFile.read(data, format: format)
        guard let packName = name ?? file.name else {
            throw StoreError.invalidPackName(
                "", problem: "a \(format.rawValue.uppercased()) file needs a pack name; give one with --name")
        }
        try PackFile(name: PackRules.normalized(packName), questions: file.questions).checkExportable()
        let pack = try write { db in
            let pack = try Self.insertCustomPack(named: packName, db)
            try Self.insert(file.questions, intoPack: pack.id!, db)
            return try Self.summary(of: pack, db)
        }
        return (pack, file.warnings)
    }

    /// The pack named `name` as a file in `format`, which ``importPack(_:format:name:)`` reads back.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``.
    public func exportPack(named name: String, format: PackFileFormat) throws -> Data {
        let details = try pack(named: name)
        return try PackFile(name: details.summary.name, questions: details.questions.map(\.question)).data(
            format: format)
    }

    static func insert(_ questions: [Question], intoPack packId: Int64, _ db: Database) throws {
        for question in questions {
            var record = QuestionRecord(packId: packId, question: question)
            try record.insert(db)
        }
    }
}

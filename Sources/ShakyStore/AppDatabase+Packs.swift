import Foundation
import GRDB
import TriviaEngine

// Packs and their questions. Packs are named by their name (compared ignoring case); questions by id.
extension AppDatabase {
    /// All packs with their question counts per difficulty: built-in packs first, then custom ones, by name.
    public func packs() throws -> [PackSummary] {
        try read { db in try Self.summaries(db) }
    }

    /// The pack named `name` (ignoring case) with all its questions.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``.
    public func pack(named name: String) throws -> PackDetails {
        try read { db in
            let pack = try Self.requirePack(named: name, db)
            return try Self.details(of: pack, db)
        }
    }

    /// Creates an empty custom pack.
    ///
    /// - Throws: ``StoreError/invalidPackName(_:problem:)``, ``StoreError/duplicatePackName(_:)``.
    @discardableResult
    public func createPack(named name: String) throws -> PackSummary {
        try write { db in
            let pack = try Self.insertCustomPack(named: name, db)
            return try Self.summary(of: pack, db)
        }
    }

    /// Renames a custom pack.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``, ``StoreError/builtinPackIsReadOnly(_:)``,
    ///   ``StoreError/invalidPackName(_:problem:)``, ``StoreError/duplicatePackName(_:)``.
    public func renamePack(_ name: String, to newName: String) throws {
        try write { db in
            var pack = try Self.requireEditablePack(named: name, db)
            pack.name = try Self.availableName(newName, excluding: pack.id, db)
            try Self.savingPack(pack.name) { try pack.update(db) }
            try Self.requireExportable(pack, db, named: true)
        }
    }

    /// Deletes a custom pack and its questions.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``, ``StoreError/builtinPackIsReadOnly(_:)``.
    public func deletePack(named name: String) throws {
        try write { db in
            let pack = try Self.requireEditablePack(named: name, db)
            try pack.delete(db)
        }
    }

    /// Copies a pack (built-in or custom) and its questions into a new, editable custom pack.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``, ``StoreError/invalidPackName(_:problem:)``,
    ///   ``StoreError/duplicatePackName(_:)``.
    @discardableResult
    public func duplicate(pack name: String, newName: String) throws -> PackSummary {
        try write { db in
            let source = try Self.requirePack(named: name, db)
            let copy = try Self.insertCustomPack(named: newName, db)
            try db.execute(
                sql: """
                    INSERT INTO question (packId, text, answer, alternates, difficulty, searchText)
                    SELECT ?, text, answer, alternates, difficulty, searchText FROM question WHERE packId = ?
                    ORDER BY id
                    """,
                arguments: [copy.id, source.id])
            try Self.requireExportable(copy, db, named: true)
            return try Self.summary(of: copy, db)
        }
    }

    /// Adds a question to a custom pack, after trimming and checking it.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)``, ``StoreError/builtinPackIsReadOnly(_:)``,
    ///   ``StoreError/invalidQuestion(problem:)``, also when the pack would pass ``PackRules/largestPackFile`` as JSON.
    @discardableResult
    public func addQuestion(_ question: Question, toPack name: String) throws -> StoredQuestion {
        try addQuestionWithWarnings(question, toPack: name).question
    }

    /// Adds a question like ``addQuestion(_:toPack:)`` and also returns what was accepted but looks wrong: the
    /// alternates left out, said as an import says them.
    public func addQuestionWithWarnings(
        _ question: Question, toPack name: String
    ) throws -> (question: StoredQuestion, warnings: [String]) {
        let checked = try Self.checked(question)
        let stored = try write { db in
            let pack = try Self.requireEditablePack(named: name, db)
            var record = QuestionRecord(packId: pack.id!, question: checked)
            try record.insert(db)
            try Self.requireExportable(pack, db)
            return StoredQuestion(id: record.id!, packName: pack.name, question: checked)
        }
        return (stored, Self.warnings(given: question, kept: checked))
    }

    /// Replaces the question `id` of a custom pack with `question`.
    ///
    /// - Throws: ``StoreError/questionNotFound(_:)``, ``StoreError/builtinPackIsReadOnly(_:)``,
    ///   ``StoreError/invalidQuestion(problem:)``.
    @discardableResult
    public func updateQuestion(id: Int64, to question: Question) throws -> StoredQuestion {
        try updateQuestionWithWarnings(id: id, to: question).question
    }

    /// Replaces a question like ``updateQuestion(id:to:)`` and also returns what was accepted but looks wrong: the
    /// alternates left out, said as an import says them.
    public func updateQuestionWithWarnings(
        id: Int64, to question: Question
    ) throws -> (question: StoredQuestion, warnings: [String]) {
        let checked = try Self.checked(question)
        let stored = try write { db in
            let (record, pack) = try Self.requireEditableQuestion(id: id, db)
            try QuestionRecord(id: record.id, packId: pack.id!, question: checked).update(db)
            try Self.requireExportable(pack, db)
            return StoredQuestion(id: id, packName: pack.name, question: checked)
        }
        return (stored, Self.warnings(given: question, kept: checked))
    }

    /// What an import would warn of in `question` as given, `kept` being its checked form: the alternates left out
    /// (``PackFile/leftOutAlternates(_:kept:at:)``, the one rule for both), with no line to name.
    private static func warnings(given question: Question, kept: Question) -> [String] {
        let written = PackFile.WrittenQuestion(alternates: question.alternates)
        return PackFile.leftOutAlternates(written, kept: kept, at: nil).map { [$0] } ?? []
    }

    /// Refuses a change that leaves `pack` larger than ``PackRules/largestPackFile`` as a JSON file, which would not
    /// import back once exported: the rule an import keeps (``PackFile/checkExportable()``).
    ///
    /// A bound from the stored lengths settles it with one query for a pack well under the limit (a checked question
    /// holds no control character but line breaks, so each byte takes at most two in JSON, and an alternate's layout
    /// is under four times its stored quotes and comma); only a pack near the limit is counted exactly.
    /// `named` says the pack's new name is what is refused (a rename or a copy: the name is in the file too), not a
    /// question.
    static func requireExportable(_ pack: PackRecord, _ db: Database, named: Bool = false) throws {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT count(*), total(length(CAST(text AS BLOB)) + length(CAST(answer AS BLOB))),
                    total(length(CAST(alternates AS BLOB)))
                FROM question WHERE packId = ?
                """, arguments: [pack.id])
        let (count, textBytes, alternateBytes): (Int, Double, Double) = (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
        // Some 110 bytes of members and indentation a question, and its difficulty.
        let bound = 2 * textBytes + 4 * alternateBytes + Double(count) * 200 + 4096
        guard bound > Double(PackRules.largestPackFile) else { return }
        let questions = try QuestionRecord.filter(QuestionRecord.Columns.packId == pack.id!).fetchAll(db)
        if let problem = try PackFile(name: pack.name, questions: questions.map(\.question)).exportProblem() {
            if named { throw StoreError.invalidPackName(pack.name, problem: problem + "; choose a shorter name") }
            throw StoreError.invalidQuestion(problem: problem + "; add it to another pack")
        }
    }

    /// Deletes the question `id` of a custom pack.
    ///
    /// - Throws: ``StoreError/questionNotFound(_:)``, ``StoreError/builtinPackIsReadOnly(_:)``.
    public func deleteQuestion(id: Int64) throws {
        try write { db in
            let (record, _) = try Self.requireEditableQuestion(id: id, db)
            try record.delete(db)
        }
    }

    /// The questions of the named packs that pass `filter`: the pool a new game draws from.
    ///
    /// Questions come pack by pack in the order of `names` (a pack named twice counts once), each pack's
    /// in the order they were added.
    ///
    /// - Throws: ``StoreError/packNotFound(_:)`` for the first name that matches no pack.
    public func questions(inPacks names: [String], filter: DifficultyFilter = .any) throws -> [Question] {
        try read { db in
            var packIds: [Int64] = []
            for name in names {
                let id = try Self.requirePack(named: name, db).id!
                if !packIds.contains(id) { packIds.append(id) }
            }
            var result: [Question] = []
            for packId in packIds {
                let records = try QuestionRecord.filter(QuestionRecord.Columns.packId == packId)
                    .order(QuestionRecord.Columns.id).fetchAll(db)
                result += records.map(\.question).filter { filter.admits($0.difficulty) }
            }
            return result
        }
    }

    /// The questions whose text, answer or alternates contain every word of `query`, anywhere and in
    /// any order, ignoring case, diacritics and spaces inside words.
    ///
    /// "capital vietnam" finds "Capital of Vietnam?", "hanoi" and "ha noi" find "Hà Nội", "MALMO" finds
    /// "Malmö", "tromso" finds "Tromsø" (see ``SearchKey``). An empty query finds nothing. Results are ordered by pack
    /// name, then by question. A word said twice counts once, and the first ``mostSearchWords`` different words
    /// count: each is a scan of every question.
    ///
    /// - Parameters:
    ///   - query: the text to look for.
    ///   - packName: search only this pack, or every pack when `nil`.
    ///   - limit: the most results returned.
    /// - Throws: ``StoreError/packNotFound(_:)`` when `packName` matches no pack.
    /// The most different words of a search that count (``searchQuestions(matching:inPack:limit:)``).
    public static let mostSearchWords = 16

    public func searchQuestions(
        matching query: String, inPack packName: String? = nil, limit: Int = 50
    ) throws
        -> [StoredQuestion]
    {
        var seen: Set<String> = []
        let words = SearchKey.words(query).filter { seen.insert($0).inserted }.prefix(Self.mostSearchWords)
        if words.isEmpty || limit <= 0 { return [] }
        return try read { db in
            var sql = """
                SELECT question.*, pack.name AS packName FROM question JOIN pack ON pack.id = question.packId
                WHERE 1
                """
            var arguments: StatementArguments = []
            for word in words {
                sql += " AND instr(replace(question.searchText, ' ', ''), ?) > 0"
                arguments += [word]
            }
            if let packName {
                sql += " AND pack.id = ?"
                arguments += [try Self.requirePack(named: packName, db).id]
            }
            sql += " ORDER BY pack.name COLLATE NOCASE, question.id LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let record = try QuestionRecord(row: row)
                return StoredQuestion(id: record.id!, packName: row["packName"], question: record.question)
            }
        }
    }

    // MARK: Helpers inside a transaction

    static func requirePack(named name: String, _ db: Database) throws -> PackRecord {
        guard let pack = try PackRecord.find(named: PackRules.normalized(name), in: db) else {
            throw StoreError.packNotFound(name)
        }
        return pack
    }

    static func requireEditablePack(named name: String, _ db: Database) throws -> PackRecord {
        let pack = try requirePack(named: name, db)
        if pack.isBuiltin { throw StoreError.builtinPackIsReadOnly(pack.name) }
        return pack
    }

    static func requireEditableQuestion(id: Int64, _ db: Database) throws -> (QuestionRecord, PackRecord) {
        guard let record = try QuestionRecord.fetchOne(db, key: id),
            let pack = try PackRecord.fetchOne(db, key: record.packId)
        else {
            throw StoreError.questionNotFound(id)
        }
        if pack.isBuiltin { throw StoreError.builtinPackIsReadOnly(pack.name) }
        return (record, pack)
    }

    /// `name` checked and normalized, after making sure no other pack (but `excluding`) has it.
    static func availableName(_ name: String, excluding packId: Int64? = nil, _ db: Database) throws -> String {
        let cleaned: String
        do throws(PackRules.Violation) {
            cleaned = try PackRules.packName(name)
        } catch {
            throw StoreError.invalidPackName(name, problem: error.problem)
        }
        if let existing = try PackRecord.find(named: cleaned, in: db), existing.id != packId {
            throw StoreError.duplicatePackName(existing.name)
        }
        return cleaned
    }

    static func insertCustomPack(named name: String, _ db: Database) throws -> PackRecord {
        var pack = PackRecord.custom(named: try availableName(name, db))
        try savingPack(pack.name) { try pack.insert(db) }
        return pack
    }

    /// Runs `save`, reporting a violated unique name as ``StoreError/duplicatePackName(_:)``.
    static func savingPack(_ name: String, _ save: () throws -> Void) throws {
        do {
            try save()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError.duplicatePackName(name)
        }
    }

    static func checked(_ question: Question) throws -> Question {
        do throws(PackRules.Violation) {
            return try PackRules.question(question)
        } catch {
            throw StoreError.invalidQuestion(problem: error.problem)
        }
    }

    static func summaries(_ db: Database, packId: Int64? = nil) throws -> [PackSummary] {
        let sql = """
            SELECT pack.id, pack.name, pack.isBuiltin, pack.builtinVersion,
                COUNT(CASE WHEN question.difficulty = 'easy' THEN 1 END) AS easyCount,
                COUNT(CASE WHEN question.difficulty = 'medium' THEN 1 END) AS mediumCount,
                COUNT(CASE WHEN question.difficulty = 'hard' THEN 1 END) AS hardCount
            FROM pack LEFT JOIN question ON question.packId = pack.id
            WHERE ? IS NULL OR pack.id = ?
            GROUP BY pack.id
            ORDER BY pack.isBuiltin DESC, pack.name COLLATE NOCASE
            """
        return try Row.fetchAll(db, sql: sql, arguments: [packId, packId]).map { row in
            PackSummary(
                id: row["id"], name: row["name"], isBuiltin: row["isBuiltin"], builtinVersion: row["builtinVersion"],
                easyCount: row["easyCount"], mediumCount: row["mediumCount"], hardCount: row["hardCount"])
        }
    }

    static func summary(of pack: PackRecord, _ db: Database) throws -> PackSummary {
        try summaries(db, packId: pack.id!)[0]
    }

    static func details(of pack: PackRecord, _ db: Database) throws -> PackDetails {
        let records = try QuestionRecord.filter(QuestionRecord.Columns.packId == pack.id!)
            .order(QuestionRecord.Columns.id).fetchAll(db)
        return PackDetails(
            summary: try summary(of: pack, db),
            questions: records.map { StoredQuestion(id: $0.id!, packName: pack.name, question: $0.question) })
    }
}

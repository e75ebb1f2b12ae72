import Foundation
import GRDB

// The packs that ship with Shaky Words: JSON files (see ``PackFileFormat``) with an `id` and a `version`.
extension AppDatabase {
    /// Installs or updates the built-in packs from the `*.json` files in `directory`, in one transaction.
    ///
    /// Idempotent: a pack whose file version is already installed is left alone, so running this on every
    /// start changes nothing. A file with a higher `version` replaces that built-in pack's name and
    /// questions. A built-in pack whose file is gone stays. When a custom pack already uses a new built-in
    /// pack's name, the built-in pack is installed as "Name (built-in)".
    ///
    /// - Returns: the names of the packs installed or updated.
    /// - Throws: ``StoreError/builtinPackInvalid(file:problem:)`` (nothing is installed then).
    @discardableResult
    public func installBuiltinPacks(from directory: URL) throws -> [String] {
        let files = try Self.readBuiltinPackFiles(in: directory)
        return try write { db in
            var changed: [String] = []
            for file in files {
                if let name = try Self.installBuiltinPack(file, db) { changed.append(name) }
            }
            return changed
        }
    }

    /// Parses and checks every pack file in `directory`, sorted by file name.
    static func readBuiltinPackFiles(in directory: URL) throws -> [PackFile] {
        let urls: [URL]
        do {
            urls = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension.lowercased() == "json" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw StoreError.builtinPackInvalid(file: directory.path, problem: "the folder cannot be read (\(error))")
        }
        var files: [PackFile] = []
        var ids: [String: URL] = [:]
        for url in urls {
            let file: PackFile
            do {
                file = try PackFile.readJSON(try Data(contentsOf: url))
            } catch let error as StoreError {
                throw StoreError.builtinPackInvalid(file: url.path, problem: error.description)
            } catch {
                throw StoreError.builtinPackInvalid(file: url.path, problem: "it cannot be read (\(error))")
            }
            guard let id = file.id, !id.isEmpty, let version = file.version, version >= 1, let name = file.name else {
                throw StoreError.builtinPackInvalid(
                    file: url.path, problem: "it needs an “id”, a “version” (1 or more) and a “name”")
            }
            do throws(PackRules.Violation) {
                _ = try PackRules.packName(name)
            } catch {
                throw StoreError.builtinPackInvalid(file: url.path, problem: error.problem)
            }
            if let other = ids[id] {
                throw StoreError.builtinPackInvalid(
                    file: url.path, problem: "its id “\(id)” is also the id of \(other.lastPathComponent)")
            }
            ids[id] = url
            files.append(file)
        }
        return files
    }

    /// Installs or updates one built-in pack; returns its name when something changed.
    private static func installBuiltinPack(_ file: PackFile, _ db: Database) throws -> String? {
        let id = file.id!
        let version = file.version!
        let existing = try PackRecord.filter(PackRecord.Columns.builtinId == id).fetchOne(db)
        if let existing, let installed = existing.builtinVersion, installed >= version {
            return nil
        }
        var pack =
            existing ?? PackRecord(id: nil, name: "", isBuiltin: true, builtinId: id, builtinVersion: version)
        pack.builtinVersion = version
        pack.name = try builtinName(PackRules.normalized(file.name!), for: pack.id, db)
        if pack.id == nil {
            try pack.insert(db)
        } else {
            try pack.update(db)
            try QuestionRecord.filter(QuestionRecord.Columns.packId == pack.id!).deleteAll(db)
        }
        try insert(file.questions, intoPack: pack.id!, db)
        return pack.name
    }

    /// `name`, or "name (built-in)" (then numbered) when another pack already has it.
    private static func builtinName(_ name: String, for packId: Int64?, _ db: Database) throws -> String {
        var candidate = name
        var attempt = 1
        while let other = try PackRecord.find(named: candidate, in: db), other.id != packId {
            attempt += 1
            candidate = attempt == 2 ? "\(name) (built-in)" : "\(name) (built-in \(attempt - 1))"
        }
        return candidate
    }
}

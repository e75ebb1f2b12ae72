import Foundation
import GRDB
import SystemCalls
import TriviaEngine

// The packs that ship with Shaky Words: JSON files (see ``PackFileFormat``) with an `id` and a `version`.
extension AppDatabase {
    /// Installs or updates the built-in packs from the `*.json` files in `directory`, in one transaction.
    ///
    /// Idempotent: a pack whose file version is already installed is left alone, so running this on every
    /// start changes nothing. A file with a higher `version` replaces that built-in pack's name and
    /// questions. A built-in pack whose file is gone stays. When a custom pack already uses a new built-in
    /// pack's name, the built-in pack is installed as "Name (built-in)".
    ///
    /// Every file's `id`, `version` and `name` are read; only the files to install are read whole and checked, so
    /// a start with every pack up to date checks no question (checking them all took a sixth of the start-up).
    ///
    /// A file that cannot be read or is not a valid pack is skipped, and `skipped` is told which and why (the
    /// daemon logs it): one damaged data file must not stop a party. The pack an earlier version of that file
    /// installed stays as it was, and the other files are installed.
    ///
    /// - Returns: the names of the packs installed or updated.
    /// - Throws: ``StoreError/builtinPackInvalid(file:problem:)`` when the folder cannot be read, or a storage error.
    @discardableResult
    public func installBuiltinPacks(
        from directory: URL, skipped: (StoreError) -> Void = { _ in }
    ) throws -> [String] {
        let headers = try Self.builtinPackHeaders(in: directory, skipped: skipped)
        let installed = try read { db in
            try Dictionary(
                PackRecord.filter(PackRecord.Columns.builtinId != nil).fetchAll(db).compactMap { pack in
                    pack.builtinId.map { ($0, pack.builtinVersion ?? 0) }
                },
                uniquingKeysWith: max)
        }
        let files = headers.filter { $0.version > installed[$0.id, default: 0] }.compactMap {
            header -> (BuiltinPackHeader, PackFile)? in
            do {
                return (header, try Self.readBuiltinPackFile(at: header.url, data: header.data))
            } catch let error as StoreError {
                skipped(error)
            } catch {
                skipped(.builtinPackInvalid(file: header.url.path, problem: "\(error)"))
            }
            return nil
        }
        guard !files.isEmpty else { return [] }
        return try write { db in
            var changed: [String] = []
            for (header, file) in files {
                if let name = try Self.installBuiltinPack(header, questions: file.questions, db) {
                    changed.append(name)
                }
            }
            return changed
        }
    }

    /// What a built-in pack file says it is, where it is, and what it holds (read once).
    struct BuiltinPackHeader {
        var id: String
        var version: Int
        var name: String
        var url: URL
        var data: Data

        private struct Fields: Decodable {
            var id: String?
            var version: Int?
            var name: String?
        }

        /// Reads and checks the `id`, `version` and `name` of the pack file at `url`.
        init(url: URL) throws {
            let data: Data
            do {
                // Read as the daemon reads an uploaded pack file: a folder or a device (a link to /dev/zero) is
                // refused with what it is, and nothing larger than an upload is read.
                data = try FileAccess.read(url.path, limit: PackRules.largestPackFile)
            } catch {
                throw StoreError.builtinPackInvalid(file: url.path, problem: "it cannot be read: \(error.reason)")
            }
            guard let fields = try? JSONDecoder().decode(Fields.self, from: data) else {
                // The whole reader says what is wrong, and where.
                _ = try AppDatabase.readBuiltinPackFile(at: url, data: data)
                throw StoreError.builtinPackInvalid(file: url.path, problem: "it cannot be read")
            }
            guard let id = fields.id, !id.isEmpty, let version = fields.version, version >= 1, let name = fields.name
            else {
                throw StoreError.builtinPackInvalid(
                    file: url.path, problem: "it needs an “id”, a “version” (1 or more) and a “name”")
            }
            do throws(PackRules.Violation) {
                _ = try PackRules.packName(name)
            } catch {
                throw StoreError.builtinPackInvalid(file: url.path, problem: error.problem)
            }
            self.id = id
            self.version = version
            self.name = name
            self.url = url
            self.data = data
        }
    }

    /// The header of every pack file in `directory`, sorted by file name. A file whose header is bad, or whose id an
    /// earlier file has, is given to `skipped`.
    static func builtinPackHeaders(
        in directory: URL, skipped: (StoreError) -> Void
    ) throws -> [BuiltinPackHeader] {
        let urls: [URL]
        do {
            // Foundation lists nothing in a folder reached through a symbolic link (a packaged data folder often is
            // one): the link is followed first.
            let folder = directory.resolvingSymlinksInPath()
            urls = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension.lowercased() == "json" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw StoreError.builtinPackInvalid(
                file: directory.path, problem: "the folder cannot be read: \(FileAccess.reason(error))")
        }
        var headers: [BuiltinPackHeader] = []
        var ids: [String: URL] = [:]
        for url in urls {
            let header: BuiltinPackHeader
            do {
                header = try BuiltinPackHeader(url: url)
            } catch let error as StoreError {
                skipped(error)
                continue
            }
            if let other = ids[header.id] {
                skipped(
                    .builtinPackInvalid(
                        file: url.path,
                        problem:
                            "its id “\(header.id)” is also the id of \(other.lastPathComponent), which is installed"
                    ))
                continue
            }
            ids[header.id] = url
            headers.append(header)
        }
        return headers
    }

    /// Parses and checks a pack file's `data`, whole: its questions (its header is ``BuiltinPackHeader``'s to check).
    private static func readBuiltinPackFile(at url: URL, data: Data) throws -> PackFile {
        do {
            return try PackFile.readJSON(data)
        } catch StoreError.importFailed(let problems, let unlisted) {
            throw StoreError.builtinPackInvalid(
                file: url.path, problem: StoreError.listed(problems, unlisted: unlisted))
        } catch {
            throw StoreError.builtinPackInvalid(file: url.path, problem: "\(error)")
        }
    }

    /// Installs or updates the built-in pack `header` names, with `questions`; returns its name when something changed.
    private static func installBuiltinPack(
        _ header: BuiltinPackHeader, questions: [Question], _ db: Database
    ) throws -> String? {
        let (id, version) = (header.id, header.version)
        let existing = try PackRecord.filter(PackRecord.Columns.builtinId == id).fetchOne(db)
        if let existing, let installed = existing.builtinVersion, installed >= version {
            return nil
        }
        var pack =
            existing ?? PackRecord(id: nil, name: "", isBuiltin: true, builtinId: id, builtinVersion: version)
        pack.builtinVersion = version
        pack.name = try builtinName(PackRules.normalized(header.name), for: pack.id, db)
        if pack.id == nil {
            try pack.insert(db)
        } else {
            try pack.update(db)
            try QuestionRecord.filter(QuestionRecord.Columns.packId == pack.id!).deleteAll(db)
        }
        try insert(questions, intoPack: pack.id!, db)
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

import Foundation
import ShakyProtocol
import ShakyStore
import TriviaEngine

/// Serves `io.shakywords.Packs` from the store.
struct PacksService: ShakyAPI.PacksInterface.Implementation {
    typealias Format = ShakyAPI.PacksInterface.ImportParameters.Format

    let database: AppDatabase

    func list() async throws -> [ShakyAPI.Pack] {
        try Self.storeCall { try database.packs() }.map(ShakyAPI.Pack.init)
    }

    func show(name: String) async throws -> ShakyAPI.PacksInterface.ShowReply {
        let details = try Self.storeCall { try database.pack(named: name) }
        return ShakyAPI.PacksInterface.ShowReply(
            pack: ShakyAPI.Pack(details.summary), questions: details.questions.map(ShakyAPI.StoredQuestion.init))
    }

    func create(name: String) async throws -> ShakyAPI.Pack {
        ShakyAPI.Pack(try Self.storeCall { try database.createPack(named: name) })
    }

    func rename(name: String, newName: String) async throws -> ShakyAPI.Pack {
        let details = try Self.storeCall {
            try database.renamePack(name, to: newName)
            return try database.pack(named: newName)
        }
        return ShakyAPI.Pack(details.summary)
    }

    func delete(name: String) async throws {
        try Self.storeCall { try database.deletePack(named: name) }
    }

    func duplicate(name: String, newName: String) async throws -> ShakyAPI.Pack {
        ShakyAPI.Pack(try Self.storeCall { try database.duplicate(pack: name, newName: newName) })
    }

    func addQuestion(pack: String, question: ShakyAPI.Question) async throws -> ShakyAPI.StoredQuestion {
        ShakyAPI.StoredQuestion(try Self.storeCall { try database.addQuestion(question.engineQuestion, toPack: pack) })
    }

    func editQuestion(id: Int, question: ShakyAPI.Question) async throws -> ShakyAPI.StoredQuestion {
        ShakyAPI.StoredQuestion(
            try Self.storeCall { try database.updateQuestion(id: Int64(id), to: question.engineQuestion) })
    }

    func deleteQuestion(id: Int) async throws {
        try Self.storeCall { try database.deleteQuestion(id: Int64(id)) }
    }

    func search(text: String, pack: String?, limit: Int?) async throws -> [ShakyAPI.StoredQuestion] {
        let found = try Self.storeCall {
            try database.searchQuestions(matching: text, inPack: pack, limit: limit ?? 50)
        }
        return found.map(ShakyAPI.StoredQuestion.init)
    }

    func `import`(data: String, format: Format, name: String?) async throws -> ShakyAPI.Pack {
        let pack = try Self.storeCall {
            try database.importPack(Data(data.utf8), format: format.packFileFormat, name: name)
        }
        return ShakyAPI.Pack(pack)
    }

    func export(name: String, format: Format) async throws -> String {
        let data = try Self.storeCall { try database.exportPack(named: name, format: format.packFileFormat) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a store call, turning its errors into the Packs interface's errors.
    static func storeCall<T>(_ body: () throws -> T) throws(ShakyAPI.PacksInterface.ReplyError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error.packsReplyError
        } catch {
            throw .storageFailed(message: "\(error)")
        }
    }
}

extension ShakyAPI.PacksInterface.ImportParameters.Format {
    var packFileFormat: PackFileFormat {
        switch self {
        case .json: .json
        case .csv: .csv
        }
    }
}

extension StoreError {
    /// This error as the Packs interface names it.
    var packsReplyError: ShakyAPI.PacksInterface.ReplyError {
        switch self {
        case .packNotFound(let name): .packNotFound(name: name)
        case .builtinPackIsReadOnly(let name): .packReadOnly(name: name)
        case .duplicatePackName(let name): .packExists(name: name)
        case .questionNotFound(let id): .questionNotFound(id: Int(id))
        case .invalidPackName, .invalidQuestion: .invalidPack(message: description)
        case .importFailed(let line, let field, let problem): .importFailed(line: line, field: field, problem: problem)
        default: .storageFailed(message: description)
        }
    }
}

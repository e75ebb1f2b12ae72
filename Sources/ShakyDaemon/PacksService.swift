import Foundation
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import TriviaEngine
import Varlink

/// Serves `io.shakywords.Packs` from the store.
struct PacksService: ShakyAPI.PacksInterface.Implementation {
    typealias Format = ShakyAPI.PacksInterface.ImportParameters.Format

    let database: AppDatabase
    /// Pack files being sent in parts.
    let uploads = PackUploads()
    /// Gives the memory malloc holds free back to the kernel (``MallocTuning/releaseFreeMemory()``).
    var releaseFreeMemory: @Sendable () -> Void = MallocTuning.releaseFreeMemory

    func list() async throws -> [ShakyAPI.Pack] {
        try await Self.storeCall { try database.packs() }.map(ShakyAPI.Pack.init)
    }

    func show(name: String) async throws -> ShakyAPI.PacksInterface.ShowReply {
        let details = try await Self.storeCall { try database.pack(named: name) }
        return ShakyAPI.PacksInterface.ShowReply(
            pack: ShakyAPI.Pack(details.summary), questions: details.questions.map(ShakyAPI.StoredQuestion.init))
    }

    func create(name: String) async throws -> ShakyAPI.Pack {
        ShakyAPI.Pack(try await Self.storeCall { try database.createPack(named: name) })
    }

    func rename(name: String, newName: String) async throws -> ShakyAPI.Pack {
        let details = try await Self.storeCall {
            try database.renamePack(name, to: newName)
            return try database.pack(named: newName)
        }
        return ShakyAPI.Pack(details.summary)
    }

    func delete(name: String) async throws {
        try await Self.storeCall { try database.deletePack(named: name) }
    }

    func duplicate(name: String, newName: String) async throws -> ShakyAPI.Pack {
        ShakyAPI.Pack(try await Self.storeCall { try database.duplicate(pack: name, newName: newName) })
    }

    func addQuestion(
        pack: String, question: ShakyAPI.Question
    ) async throws -> ShakyAPI.PacksInterface.AddQuestionReply {
        let added = try await Self.storeCall {
            try database.addQuestionWithWarnings(question.engineQuestion, toPack: pack)
        }
        return ShakyAPI.PacksInterface.AddQuestionReply(
            question: ShakyAPI.StoredQuestion(added.question), warnings: added.warnings.isEmpty ? nil : added.warnings)
    }

    func editQuestion(
        id: Int, question: ShakyAPI.Question
    ) async throws -> ShakyAPI.PacksInterface.EditQuestionReply {
        let edited = try await Self.storeCall {
            try database.updateQuestionWithWarnings(id: Int64(id), to: question.engineQuestion)
        }
        return ShakyAPI.PacksInterface.EditQuestionReply(
            question: ShakyAPI.StoredQuestion(edited.question),
            warnings: edited.warnings.isEmpty ? nil : edited.warnings)
    }

    func deleteQuestion(id: Int) async throws {
        try await Self.storeCall { try database.deleteQuestion(id: Int64(id)) }
    }

    func search(text: String, pack: String?, limit: Int?) async throws -> [ShakyAPI.StoredQuestion] {
        try GameService.checkLimit(limit)
        let found = try await Self.storeCall {
            try database.searchQuestions(matching: text, inPack: pack, limit: limit ?? 50)
        }
        return found.map(ShakyAPI.StoredQuestion.init)
    }

    func `import`(data: String, format: Format, name: String?) async throws -> ShakyAPI.PacksInterface.ImportReply {
        let imported = try await wholePackCall {
            try database.importPackWithWarnings(Data(data.utf8), format: format.packFileFormat, name: name)
        }
        return ShakyAPI.PacksInterface.ImportReply(
            pack: ShakyAPI.Pack(imported.pack), warnings: imported.warnings.isEmpty ? nil : imported.warnings)
    }

    func beginUpload(size: Int) async throws -> ShakyAPI.PacksInterface.BeginUploadReply {
        let upload = try Self.uploadCall { () throws(PackUploads.Refusal) in
            try uploads.begin(size: size, owner: Self.callerID)
        }
        return ShakyAPI.PacksInterface.BeginUploadReply(upload: upload, limit: PackUploads.largestFile)
    }

    func uploadPart(upload: String, offset: Int, data: String) async throws -> Int {
        try Self.uploadCall { () throws(PackUploads.Refusal) in
            try uploads.append(data, at: offset, to: upload, owner: Self.callerID)
        }
    }

    func importUpload(
        upload: String, format: ShakyAPI.PacksInterface.ImportUploadParameters.Format, name: String?
    ) async throws -> ShakyAPI.PacksInterface.ImportUploadReply {
        let text = try Self.uploadCall { () throws(PackUploads.Refusal) in
            try uploads.finish(upload, owner: Self.callerID)
        }
        let imported = try await wholePackCall {
            try database.importPackWithWarnings(
                Data(text.utf8), format: format == .json ? .json : .csv, name: name)
        }
        return ShakyAPI.PacksInterface.ImportUploadReply(
            pack: ShakyAPI.Pack(imported.pack), warnings: imported.warnings.isEmpty ? nil : imported.warnings)
    }

    /// The user id of the caller (this process's for an in-process call).
    private static var callerID: UInt32 {
        VarlinkRequest.current?.peer.uid ?? VarlinkPeerCredentials.currentProcess.uid
    }

    /// Runs an upload call, turning its refusals into the Packs interface's errors.
    private static func uploadCall<T>(
        _ body: () throws(PackUploads.Refusal) -> T
    ) throws(ShakyAPI.PacksInterface.ReplyError) -> T {
        do throws(PackUploads.Refusal) {
            return try body()
        } catch {
            switch error {
            case .notFound(let upload): throw .uploadNotFound(upload: upload)
            case .refused(let message): throw .uploadRefused(message: message)
            }
        }
    }

    func export(name: String, format: ShakyAPI.PacksInterface.ExportParameters.Format) async throws -> String {
        let data = try await Self.storeCall { try database.exportPack(named: name, format: format.packFileFormat) }
        return String(decoding: data, as: UTF8.self)
    }

    /// A store call that writes a whole pack (an import of thousands of questions), then gives back to the kernel
    /// the memory its many small blocks took: malloc keeps them once they are freed. (The calls with a large reply,
    /// an export or a show, give it back once their reply is written: ``Daemon/releaseFreeMemoryOffTheEventLoop()``.)
    private func wholePackCall<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws(ShakyAPI.PacksInterface.ReplyError) -> T {
        let release = releaseFreeMemory
        return try await Self.storeCall {
            defer { release() }
            return try body()
        }
    }

    /// Runs a store call off the event loop (``BlockingWork``), turning its errors into the Packs interface's errors.
    static func storeCall<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws(ShakyAPI.PacksInterface.ReplyError) -> T {
        try await BlockingWork.run(body) { error in
            (error as? StoreError)?.packsReplyError ?? .storageFailed(message: "\(error)")
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

extension ShakyAPI.PacksInterface.ExportParameters.Format {
    var packFileFormat: PackFileFormat {
        switch self {
        case .json: .json
        case .csv: .csv
        case .tsv: .tsv
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
        case .importFailed(let problems, let unlisted):
            Self.importFailed(problems, unlisted: unlisted)
        default: .storageFailed(message: description)
        }
    }

    /// `ImportFailed` for `problems`: the first in `line`, `field` and `problem` (what a client that knows no
    /// list shows), and, when more than one question is bad, all of them in `problems` and the count of the others.
    private static func importFailed(
        _ problems: [PackFileProblem], unlisted: Int
    ) -> ShakyAPI.PacksInterface.ReplyError {
        let first = problems.first ?? PackFileProblem(problem: "the file is not a pack")
        guard problems.count + unlisted > 1 else {
            return .importFailed(
                line: first.line, field: first.field, problem: first.problem, problems: nil, unlisted: nil)
        }
        return .importFailed(
            line: first.line, field: first.field, problem: first.problem,
            problems: problems.map { ShakyAPI.ImportProblem(line: $0.line, field: $0.field, problem: $0.problem) },
            unlisted: unlisted > 0 ? unlisted : nil)
    }
}

import Foundation

/// What can go wrong in the quiz store, each case with a message a host can act on.
public enum StoreError: Error, Equatable, Sendable {
    /// No pack has this name.
    case packNotFound(String)
    /// The pack is built in, so it cannot be edited, renamed or deleted.
    case builtinPackIsReadOnly(String)
    /// Another pack already has this name (names are compared ignoring case).
    case duplicatePackName(String)
    /// The pack name is not acceptable (empty, too long, holds a line break).
    case invalidPackName(String, problem: String)
    /// No question has this id.
    case questionNotFound(Int64)
    /// No finished game in the history has this id.
    case finishedGameNotFound(Int64)
    /// The question is not acceptable (empty answer, answer too long, …).
    case invalidQuestion(problem: String)
    /// A pack file could not be imported; nothing was imported.
    ///
    /// `problems` holds what stops the file from being read (one problem), or its bad questions in the file's
    /// order: the first ``PackFile/mostListedProblems`` of them, with `unlisted` counting the others.
    case importFailed(problems: [PackFileProblem], unlisted: Int = 0)
    /// No folder of built-in packs was found.
    case builtinPacksNotFound(searched: String)
    /// A built-in pack file is malformed.
    case builtinPackInvalid(file: String, problem: String)
    /// The saved game snapshot cannot be read by this version.
    case snapshotUnreadable(problem: String)
    /// Daemon preferences out of range.
    case invalidPreferences(problem: String)
    /// A finished game's result is not consistent (no teams, a winner who is not a team, …).
    case invalidGameResult(problem: String)
    /// The database file cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The disk (or the database's size limit) is full; the change was not saved.
    case diskFull(path: String)
    /// The database file cannot be written (read-only file, folder or file system).
    case notWritable(path: String, reason: String)
    /// The file is not a Shaky Words database or is damaged.
    case corrupt(path: String, reason: String)
    /// The database was written by a newer version of Shaky Words.
    case newerDatabase(path: String)
}

extension StoreError: CustomStringConvertible, LocalizedError {
    /// The human message for this error.
    public var description: String {
        switch self {
        case .packNotFound(let name):
            "There is no pack named “\(name)”."
        case .builtinPackIsReadOnly(let name):
            "“\(name)” is a built-in pack; duplicate it to edit a copy."
        case .duplicatePackName(let name):
            "A pack named “\(name)” already exists; choose another name."
        case .invalidPackName(let name, let problem):
            "The pack name “\(name)” cannot be used: \(problem)."
        case .questionNotFound(let id):
            "There is no question with id \(id)."
        case .finishedGameNotFound(let id):
            "There is no finished game with id \(id) in the history."
        case .invalidQuestion(let problem):
            "The question cannot be saved: \(problem)."
        case .importFailed(let problems, let unlisted):
            Self.importFailure(problems, unlisted: unlisted)
        case .builtinPacksNotFound(let searched):
            "The built-in quiz packs were not found (looked in \(searched)); set SHAKY_DATA_DIR to the data folder."
        case .builtinPackInvalid(let file, let problem):
            "The built-in pack file \(file) is invalid: \(problem)."
        case .snapshotUnreadable(let problem):
            "The saved game cannot be read: \(problem)."
        case .invalidGameResult(let problem):
            "The finished game cannot be recorded: \(problem)."
        case .invalidPreferences(let problem):
            "The settings cannot be saved: \(problem)."
        case .cannotOpen(let path, let reason):
            "Cannot open the database \(path): \(reason)."
        case .diskFull(let path):
            "The disk holding the database \(path) is full; the change was not saved. Free some space and retry."
        case .notWritable(let path, let reason):
            "Cannot write the database \(path): \(reason)."
        case .corrupt(let path, let reason):
            "The database \(path) is damaged or not a Shaky Words database: \(reason). Restart shakyd to set it "
                + "aside and start with a new one, without its packs and history, or move it aside yourself (`mv "
                + "\(path) \(path).damaged`); `sqlite3 \(path) .dump` writes out what can still be read of them."
        case .newerDatabase(let path):
            "The database \(path) was written by a newer version of Shaky Words; upgrade to open it."
        }
    }

    /// The human message for this error.
    public var errorDescription: String? { description }

    /// "Import failed at line 4, field “answer”: the answer is empty. Nothing was imported.", or for several bad
    /// questions their count, then each one's place and problem.
    private static func importFailure(_ problems: [PackFileProblem], unlisted: Int) -> String {
        guard problems.count + unlisted > 1 else {
            let problem = problems.first ?? PackFileProblem(problem: "the file is not a pack")
            let place = problem.place
            return "Import failed\(place.isEmpty ? "" : " at " + place): \(problem.problem). Nothing was imported."
        }
        return "Import failed: \(problems.count + unlisted) questions are bad, so nothing was imported. "
            + listed(problems, unlisted: unlisted) + "."
    }

    /// Each problem's place and words, and how many more there are: "line 4: the answer is empty; and 3 more".
    static func listed(_ problems: [PackFileProblem], unlisted: Int) -> String {
        let listed = problems.map { ($0.place.isEmpty ? "" : $0.place + ": ") + $0.problem }
        return (listed + (unlisted > 0 ? ["and \(unlisted) more"] : [])).joined(separator: "; ")
    }
}

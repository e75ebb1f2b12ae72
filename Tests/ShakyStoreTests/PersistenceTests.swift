import Foundation
import GRDB
import Testing
import TriviaEngine

@testable import ShakyStore

@Suite struct PersistenceTests {
    @Test func aDatabaseFileKeepsItsDataAcrossOpens() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/deeper/shaky.sqlite").path
        do {
            let database = try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
            try database.duplicate(pack: "Places with Accents", newName: "Mine")
            try database.saveSnapshot(try StoreFixtures.gameInPlay())
            let (journalMode, foreignKeys) = try database.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
            }
            #expect(journalMode == "wal")
            #expect(foreignKeys == true)
        }
        let reopened = try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        #expect(try reopened.packs().count == 8)
        #expect(try reopened.searchQuestions(matching: "ha noi", inPack: "mine").map(\.question.answer) == ["Hà Nội"])
        let expected = try StoreFixtures.gameInPlay()
        #expect(try reopened.loadSnapshot() == expected)
    }

    @Test func anUncreatableFolderIsReportedWithThePath() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A regular file where a folder should be: this fails even for root.
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("shaky.sqlite").path
        let error = #expect(throws: StoreError.self) { try AppDatabase.open(path: path, builtinPacks: .skip) }
        guard case .cannotOpen(let errorPath, _) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(error?.description.contains(path) == true)
    }

    @Test func aFileThatIsNotADatabaseIsReportedWithThePath() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.sqlite").path
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try AppDatabase.open(path: path, builtinPacks: .skip) }
        guard case .corrupt(let errorPath, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(error?.description.contains("Restart shakyd to set it aside") == true)
        #expect(error?.description.contains("(`mv \(path) \(path).damaged`)") == true)
    }

    /// A database with one finished game in its history, closed; returns its path.
    private func databaseWithHistory(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("shaky.sqlite").path
        let database = try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        _ = try database.transaction { store in
            try store.recordFinishedGame(
                StoreFixtures.result([("Owls", 30, 1), ("Foxes", 20, 2)], winners: ["Owls"]), finishedAt: Date())
        }
        try database.close()
        return path
    }

    /// Overwrites the page holding the history's games, which opening the database does not read.
    private func damageTheHistory(at path: String) throws {
        let (page, pageSize) = try DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'finishedGame'") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            )
        }
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        file.write(Data(repeating: 0xA5, count: pageSize))
        try file.close()
    }

    @Test func aFileDamagedPastItsFirstPageIsFoundWhenItOpensAndLeftAsItWas() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try databaseWithHistory(in: folder)
        try damageTheHistory(at: path)
        let damaged = FileManager.default.contents(atPath: path)

        let error = #expect(throws: StoreError.self) {
            try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        }
        guard case .corrupt(let errorPath, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(FileManager.default.contents(atPath: path) == damaged, "nothing was written to it")
    }

    @Test func aFileDamagedWhileOpenGivesATypedErrorToTheCallThatMeetsIt() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try databaseWithHistory(in: folder)
        let database = try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        try damageTheHistory(at: path)
        let error = #expect(throws: StoreError.self) { try database.history() }
        guard case .corrupt(let errorPath, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(try database.packs().count == 7, "what is not damaged is still served")
    }

    @Test func aDamagedFileIsSetAsideWithItsLogAndNumberedBesideAnEarlierOne() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shaky.sqlite").path
        let bootTime = Date(timeIntervalSince1970: 1_795_811_415)
        var setAside: [URL] = []
        for round in 1...2 {
            for suffix in ["", "-wal", "-shm"] {
                try Data("damaged \(round)\(suffix)".utf8).write(to: URL(fileURLWithPath: path + suffix))
            }
            setAside.append(try AppDatabase.setAsideDamagedFile(at: path, time: bootTime))
        }
        #expect(
            setAside.map(\.lastPathComponent) == [
                "damaged-database-20261127T203015Z.sqlite", "damaged-database-20261127T203015Z-2.sqlite",
            ])
        for (round, file) in zip(1...2, setAside) {
            for suffix in ["", "-wal", "-shm"] {
                let kept = FileManager.default.contents(atPath: file.path + suffix).map {
                    String(decoding: $0, as: UTF8.self)
                }
                #expect(kept == "damaged \(round)\(suffix)")
                #expect(!FileManager.default.fileExists(atPath: path + suffix))
            }
        }
        // A new database in its place.
        let fresh = try AppDatabase.open(path: path, builtinPacks: .directory(StoreFixtures.builtinPacksFolder))
        #expect(try fresh.packs().count == 7)
    }

    @Test func aFullDiskIsReportedAndTheImportLeavesNothing() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("full.sqlite").path
        let database = try AppDatabase.open(path: path, builtinPacks: .skip)
        try database.createPack(named: "Small")
        // Cap the file at its current size: the next growth fails as a full disk would.
        try database.writer.writeWithoutTransaction { db in
            _ = try? db.execute(sql: "PRAGMA max_page_count = 1")
        }
        var csv = "question,answer,difficulty\n"
        for index in 0..<2000 {
            csv += "Question number \(index) with some padding text to fill pages?,Answer,easy\n"
        }
        #expect(throws: StoreError.diskFull(path: path)) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Big")
        }
        #expect(try database.packs().map(\.name) == ["Small"])
    }

    @Test func errorMessagesNameWhatIsWrong() {
        #expect(
            StoreError.diskFull(path: "/var/lib/shaky/shaky.sqlite").description.contains("/var/lib/shaky/shaky.sqlite")
        )
        #expect(
            StoreError.importFailed(problems: [
                PackFileProblem(line: 7, field: "difficulty", problem: "unknown difficulty “extreme”")
            ]).description
                == "Import failed at line 7, field “difficulty”: unknown difficulty “extreme”. Nothing was imported.")
        #expect(
            StoreError.importFailed(
                problems: [
                    PackFileProblem(line: 2, field: "answer", problem: "the answer is empty"),
                    PackFileProblem(line: 5, problem: "expected 3 fields like the header, found 4"),
                ], unlisted: 3
            ).description
                == "Import failed: 5 questions are bad, so nothing was imported. line 2, field “answer”: the answer is "
                + "empty; line 5: expected 3 fields like the header, found 4; and 3 more.")
        #expect(StoreError.packNotFound("Pets").errorDescription == "There is no pack named “Pets”.")
    }
}

import Foundation
import GRDB
import ShakyCore
import Testing

@testable import ShakyStore

@Suite struct MigrationTests {
    /// Buttons kept under a team's name lower-cased are found by the key games and the history use: a button given to
    /// "STRASSE" belongs to "Straße".
    @Test func buttonsAreKeptUnderTheFoldedTeamName() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "sensorCalibrationByDevice")
        try queue.write { db in
            for (keyCode, team) in [(30, "STRASSE"), (48, "Owls"), (2, "ﬃ Club")] {
                try db.execute(
                    sql: """
                        INSERT INTO buzzerAssignment (device, keyCode, keyName, team, teamKey)
                            VALUES ('kbd', ?, 'KEY', ?, lower(?))
                        """, arguments: [keyCode, team, team])
            }
        }
        let database = try AppDatabase(writer: queue, path: ":memory:")
        let keys = try database.buzzerAssignments().map { "\($0.keyCode)=\($0.teamKey)" }
        #expect(keys == ["2=ffi club", "48=owls", "30=strasse"])
        #expect(TeamNameKey.of(" Straße ") == "strasse")
    }

    @Test func migratesAnEmptyDatabaseToEveryTable() throws {
        let database = try AppDatabase.inMemory()
        let tables = [
            "pack", "question", "gameSnapshot", "finishedGame", "finishedGameTeam", "daemonPreferences",
            "sensorCalibration", "buzzerAssignment",
        ]
        let (existing, applied, completed) = try database.read { db in
            (
                try tables.filter { try db.tableExists($0) }, try AppDatabase.migrator.appliedMigrations(db),
                try AppDatabase.migrator.hasCompletedMigrations(db)
            )
        }
        #expect(existing == tables)
        #expect(
            applied == [
                "v1", "v2", "v3-sensorCalibration", "v4-finishedGameKind", "buzzerAssignments",
                "sensorCalibrationByDevice", "buzzerAssignmentTeamKeyFolded", "searchTextCompatibilityForms",
                "daemonPreferencesSensitivityChosen",
            ])
        #expect(completed)
        #expect(try database.packs().isEmpty)
    }

    /// Inserts a pack and returns its id, straight through SQL.
    private func insertPack(_ db: Database, name: String = "Raw") throws -> Int64 {
        try db.execute(sql: "INSERT INTO pack (name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }

    private func insertQuestion(_ db: Database, packId: Int64, answer: String, difficulty: String) throws {
        try db.execute(
            sql: "INSERT INTO question (packId, text, answer, difficulty, searchText) VALUES (?, 'Q?', ?, ?, '')",
            arguments: [packId, answer, difficulty])
    }

    private func expectConstraintFailure(_ sql: String, _ body: (Database) throws -> Void) throws {
        let database = try AppDatabase.inMemory()
        try database.writer.writeWithoutTransaction { db in
            let error = #expect(throws: DatabaseError.self, Comment(rawValue: sql)) { try body(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT, Comment(rawValue: sql))
        }
    }

    @Test func schemaRefusesAnUnknownDifficulty() throws {
        try expectConstraintFailure("difficulty CHECK") { db in
            try insertQuestion(db, packId: try insertPack(db), answer: "Cat", difficulty: "extreme")
        }
    }

    @Test func schemaRefusesAnAnswerLongerThanFortyCharacters() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let packId = try insertPack(db)
            // 40 letters, even with non-ASCII ones, are accepted.
            try insertQuestion(db, packId: packId, answer: String(repeating: "ø", count: 40), difficulty: "easy")
        }
        try expectConstraintFailure("answer length CHECK") { db in
            try insertQuestion(
                db, packId: try insertPack(db), answer: String(repeating: "a", count: 41), difficulty: "easy")
        }
        try expectConstraintFailure("empty answer CHECK") { db in
            try insertQuestion(db, packId: try insertPack(db), answer: "", difficulty: "easy")
        }
    }

    @Test func schemaRefusesAQuestionWithoutAPack() throws {
        try expectConstraintFailure("question foreign key") { db in
            try insertQuestion(db, packId: 999, answer: "Cat", difficulty: "easy")
        }
    }

    @Test func schemaRefusesPackNamesThatDifferOnlyInCase() throws {
        try expectConstraintFailure("UNIQUE NOCASE name") { db in
            _ = try insertPack(db, name: "Animals")
            _ = try insertPack(db, name: "ANIMALS")
        }
    }

    @Test func schemaRefusesASecondSnapshotRow() throws {
        try expectConstraintFailure("single-row snapshot") { db in
            try db.execute(sql: "INSERT INTO gameSnapshot (id, game) VALUES (2, '{}')")
        }
    }

    @Test func schemaRefusesABuiltinPackWithoutVersion() throws {
        try expectConstraintFailure("built-in pack needs id and version") { db in
            try db.execute(sql: "INSERT INTO pack (name, isBuiltin) VALUES ('Half', 1)")
        }
    }

    @Test func deletingAPackDeletesItsQuestions() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            let packId = try insertPack(db)
            try insertQuestion(db, packId: packId, answer: "Cat", difficulty: "easy")
            try db.execute(sql: "DELETE FROM pack WHERE id = ?", arguments: [packId])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM question") == 0)
        }
    }

    /// The committed v1 database must open with the current code and keep its data. A migration that
    /// breaks old databases fails here. Add a fixture for each new schema version.
    @Test func opensTheCommittedVersionOneDatabase() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v1.sqlite").path
        try FileManager.default.copyItem(
            atPath: StoreFixtures.fixturesFolder.appendingPathComponent("v1.sqlite").path, toPath: path)

        let database = try AppDatabase.open(path: path, builtinPacks: .skip)
        let pack = try database.pack(named: "Fixture Pack")
        #expect(pack.questions.map(\.question.answer) == ["Malmö", "Cat"])
        #expect(try database.searchQuestions(matching: "malmo").count == 1)
        #expect(try database.history().first?.teams.map(\.name) == ["Owls", "Foxes"])
        #expect(try database.leaderboard().map(\.team) == ["Owls", "Foxes"])
        #expect(try database.history().first?.kind == .played, "games recorded before kinds count as played")
        #expect(try database.loadSnapshot() != nil)
        // The old database also takes new writes and the current built-in packs.
        try database.addQuestion(.init(text: "New?", answer: "Yes", difficulty: .easy), toPack: "Fixture Pack")
        try database.installBuiltinPacks(from: StoreFixtures.builtinPacksFolder)
        #expect(try database.packs().count == 8)
    }

    /// Calibrations kept under an IIO reading mode move to the device's interface; where both modes had one, the
    /// buffered one stays; other devices keep theirs.
    @Test func calibrationsMoveFromTheReadingModeToTheDevice() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "buzzerAssignments")
        try queue.write { db in
            for (device, threshold) in [
                ("iio-poll:mpu6050", 18.0), ("iio-buffer:mpu6050", 14), ("iio-poll:bmi160", 15),
                ("evdev:Nintendo Wii Remote Accelerometer", 20), ("trace:iio-buffer:x", 16),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO sensorCalibration (device, threshold, sustainedThreshold, strokePeak, noise)
                            VALUES (?, ?, 5, 30, 0.1)
                        """, arguments: [device, threshold])
            }
        }
        let database = try AppDatabase(writer: queue, path: ":memory:")
        let kept = try database.read { db in
            try SensorCalibration.order(Column("device")).fetchAll(db).map { "\($0.device)=\($0.threshold)" }
        }
        #expect(
            kept == [
                "evdev:Nintendo Wii Remote Accelerometer=20.0", "iio:bmi160=15.0", "iio:mpu6050=14.0",
                "trace:iio-buffer:x=16.0",
            ])
    }

    /// Questions saved before search folded compatibility forms ("ǅ" as "dž") are found by them after the upgrade: the
    /// migration writes their search text again.
    @Test func searchTextIsFoldedAgainForCompatibilityForms() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "buzzerAssignmentTeamKeyFolded")
        try queue.write { db in
            let packId = try insertPack(db)
            try db.execute(
                sql: """
                    INSERT INTO question (packId, text, answer, alternates, difficulty, searchText)
                        VALUES (?, 'A Bosnian name?', 'ǅemal', '["Džemal"]', 'easy', ?)
                    """, arguments: [packId, "a bosnian name?\nǆemal\ndzemal"])
        }
        let database = try AppDatabase(writer: queue, path: ":memory:")
        #expect(try database.searchQuestions(matching: "ǆemal").map(\.question.answer) == ["ǅemal"])
        let searchText = try database.read { db in try String.fetchOne(db, sql: "SELECT searchText FROM question") }
        #expect(searchText == "a bosnian name?\ndzemal\ndzemal")
    }

    /// A preset saved before the database said whether it was chosen over the socket stays chosen unless it is the
    /// default, which a start with `--sensitivity` may then set.
    @Test(arguments: [("light", true), ("medium", false)])
    func aSavedPresetOtherThanTheDefaultStaysChosen(sensitivity: String, chosen: Bool) throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "searchTextCompatibilityForms")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO daemonPreferences (id, soundEnabled, volume, sensitivity) VALUES (1, 1, 0.5, ?)",
                arguments: [sensitivity])
        }
        let database = try AppDatabase(writer: queue, path: ":memory:")
        #expect(
            try database.preferences()
                == DaemonPreferences(volume: 0.5, sensitivity: sensitivity, sensitivityChosen: chosen))
    }

    @Test func refusesAnotherProgramsDatabaseAsNotOurs() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE pack (x)") }
        #expect(throws: StoreError.corrupt(path: path, reason: "it holds another program's tables")) {
            try AppDatabase.open(path: path, builtinPacks: .skip)
        }
        // As an older shakyd's failed first migration left it: an empty migrations table beside the other tables.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        #expect(throws: StoreError.corrupt(path: path, reason: "it holds another program's tables")) {
            try AppDatabase.open(path: path, builtinPacks: .skip)
        }
    }

    @Test func refusesADatabaseFromANewerVersion() throws {
        let folder = try StoreFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("newer.sqlite").path
        do {
            let database = try AppDatabase.open(path: path, builtinPacks: .skip)
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
            }
        }
        #expect(throws: StoreError.newerDatabase(path: path)) {
            try AppDatabase.open(path: path, builtinPacks: .skip)
        }
    }
}

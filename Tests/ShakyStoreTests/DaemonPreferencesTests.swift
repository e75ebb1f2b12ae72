import Testing

@testable import ShakyStore

@Suite struct DaemonPreferencesTests {
    @Test func defaultsUntilSavedThenWhatWasSaved() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.preferences() == .default)
        let quiet = DaemonPreferences(soundEnabled: false, volume: 0.25, sensitivity: "hard")
        try database.savePreferences(quiet)
        #expect(try database.preferences() == quiet)
        try database.savePreferences(.default)
        #expect(try database.preferences() == .default)
    }

    @Test func outOfRangeValuesAreRefusedAndChangeNothing() throws {
        let database = try AppDatabase.inMemory()
        #expect(throws: StoreError.self) {
            try database.savePreferences(DaemonPreferences(volume: 1.5))
        }
        #expect(throws: StoreError.self) {
            try database.savePreferences(DaemonPreferences(sensitivity: "violent"))
        }
        #expect(try database.preferences() == .default)
    }

    @Test func theSchemaRefusesBadRowsToo() throws {
        let database = try AppDatabase.inMemory()
        #expect(throws: (any Error).self) {
            try database.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO daemonPreferences (id, soundEnabled, volume, sensitivity) VALUES (1, 1, 2.0, 'hard')"
                )
            }
        }
    }
}

import Foundation
import GRDB
import ShakyCore

extension AppDatabase {
    /// The schema's history: append-only raw-SQL migrations, never edited once released.
    ///
    /// The schema holds the rules it can: NOT NULL everywhere, foreign keys with ON DELETE CASCADE,
    /// difficulty and length CHECKs, unique pack names (ASCII case folded by NOCASE; the app also
    /// compares names with full Unicode case folding before writing), and a single-row snapshot table.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pack (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL UNIQUE COLLATE NOCASE
                            CHECK (length(name) BETWEEN 1 AND 60 AND name = trim(name)),
                        isBuiltin BOOLEAN NOT NULL DEFAULT 0 CHECK (isBuiltin IN (0, 1)),
                        builtinId TEXT UNIQUE CHECK (length(builtinId) >= 1),
                        builtinVersion INTEGER CHECK (builtinVersion >= 1),
                        CHECK ((isBuiltin = 1) = (builtinId IS NOT NULL AND builtinVersion IS NOT NULL))
                    );

                    CREATE TABLE question (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        packId INTEGER NOT NULL REFERENCES pack(id) ON DELETE CASCADE,
                        text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
                        answer TEXT NOT NULL CHECK (length(answer) BETWEEN 1 AND 40),
                        alternates TEXT NOT NULL DEFAULT '[]'
                            CHECK (json_valid(alternates) AND json_type(alternates) = 'array'),
                        difficulty TEXT NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
                        searchText TEXT NOT NULL
                    );
                    CREATE INDEX question_on_packId ON question(packId);

                    CREATE TABLE finishedGame (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        finishedAt DATETIME NOT NULL,
                        result TEXT NOT NULL CHECK (json_valid(result))
                    );
                    CREATE INDEX finishedGame_on_finishedAt ON finishedGame(finishedAt);

                    CREATE TABLE finishedGameTeam (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        finishedGameId INTEGER NOT NULL REFERENCES finishedGame(id) ON DELETE CASCADE,
                        team TEXT NOT NULL CHECK (length(team) >= 1),
                        teamKey TEXT NOT NULL CHECK (length(teamKey) >= 1),
                        points INTEGER NOT NULL,
                        rank INTEGER NOT NULL CHECK (rank >= 1),
                        isWinner BOOLEAN NOT NULL CHECK (isWinner IN (0, 1)),
                        UNIQUE (finishedGameId, teamKey)
                    );
                    CREATE INDEX finishedGameTeam_on_teamKey ON finishedGameTeam(teamKey);

                    CREATE TABLE gameSnapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        game TEXT NOT NULL CHECK (json_valid(game)),
                        finishedGameId INTEGER REFERENCES finishedGame(id) ON DELETE SET NULL
                    );
                    """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE daemonPreferences (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        soundEnabled BOOLEAN NOT NULL CHECK (soundEnabled IN (0, 1)),
                        volume DOUBLE NOT NULL CHECK (volume >= 0 AND volume <= 1),
                        sensitivity TEXT NOT NULL CHECK (sensitivity IN ('light', 'medium', 'hard'))
                    );
                    """)
        }
        migrator.registerMigration("v3-sensorCalibration") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sensorCalibration (
                        device TEXT PRIMARY KEY NOT NULL CHECK (length(device) BETWEEN 1 AND 300),
                        threshold DOUBLE NOT NULL CHECK (threshold > 0 AND threshold <= 100),
                        sustainedThreshold DOUBLE NOT NULL CHECK (sustainedThreshold > 0 AND sustainedThreshold <= 100),
                        strokePeak DOUBLE NOT NULL CHECK (strokePeak >= 0),
                        noise DOUBLE NOT NULL CHECK (noise >= 0)
                    );
                    """)
        }
        migrator.registerMigration("v4-finishedGameKind") { db in
            // How a finished game counts: only "played" games reach the leaderboard.
            try db.execute(
                sql: """
                    ALTER TABLE finishedGame ADD COLUMN kind TEXT NOT NULL DEFAULT 'played'
                        CHECK (kind IN ('played', 'demo', 'replaced', 'scoreless'));
                    """)
        }
        migrator.registerMigration("buzzerAssignments") { db in
            try db.execute(
                sql: """
                    CREATE TABLE buzzerAssignment (
                        device TEXT NOT NULL CHECK (length(device) BETWEEN 1 AND 300),
                        keyCode INTEGER NOT NULL CHECK (keyCode BETWEEN 0 AND 767),
                        keyName TEXT NOT NULL CHECK (length(keyName) BETWEEN 1 AND 60),
                        team TEXT NOT NULL CHECK (length(team) >= 1 AND team = trim(team)),
                        teamKey TEXT NOT NULL CHECK (length(teamKey) >= 1),
                        PRIMARY KEY (device, keyCode)
                    );
                    CREATE INDEX buzzerAssignment_on_teamKey ON buzzerAssignment(teamKey);
                    """)
        }
        migrator.registerMigration("sensorCalibrationByDevice") { db in
            // Calibrations were kept under the IIO driver's reading mode (`iio-buffer:NAME`, `iio-poll:NAME`), so
            // a device that fell back from buffered to polled reading lost its calibration. Keep them under the
            // interface (`iio:NAME`); where both modes had one, the buffered one (the usual way) wins.
            try db.execute(
                sql: """
                    UPDATE OR IGNORE sensorCalibration SET device = 'iio:' || substr(device, 12)
                        WHERE substr(device, 1, 11) = 'iio-buffer:';
                    UPDATE OR IGNORE sensorCalibration SET device = 'iio:' || substr(device, 10)
                        WHERE substr(device, 1, 9) = 'iio-poll:';
                    DELETE FROM sensorCalibration
                        WHERE substr(device, 1, 11) = 'iio-buffer:' OR substr(device, 1, 9) = 'iio-poll:';
                    """)
        }
        migrator.registerMigration("buzzerAssignmentTeamKeyFolded") { db in
            // Buttons were kept under the team's name lower-cased, while games and the history tell teams apart by
            // TeamNameKey (full case folding, NFC): a button given to "STRASSE" did not buzz for a game's "Straße".
            // Two keys that now fold together keep both buttons: a team may have several.
            let rows = try Row.fetchAll(db, sql: "SELECT device, keyCode, team FROM buzzerAssignment")
            for row in rows {
                let team: String = row["team"]
                let key = TeamNameKey.of(team)
                guard !key.isEmpty else { continue }
                try db.execute(
                    sql: "UPDATE buzzerAssignment SET teamKey = ? WHERE device = ? AND keyCode = ?",
                    arguments: [key, row["device"], row["keyCode"]])
            }
        }
        migrator.registerMigration("searchTextCompatibilityForms") { db in
            // TextFold came to fold compatibility forms ("ǅ" as "dž"): write every question's search text again.
            let rows = try Row.fetchAll(db, sql: "SELECT id, text, answer, alternates FROM question")
            for row in rows {
                let alternatesJSON: String = row["alternates"]
                let alternates = (try? JSONDecoder().decode([String].self, from: Data(alternatesJSON.utf8))) ?? []
                let searchText = SearchKey.searchText(text: row["text"], answer: row["answer"], alternates: alternates)
                try db.execute(
                    sql: "UPDATE question SET searchText = ? WHERE id = ? AND searchText != ?",
                    arguments: [searchText, row["id"] as Int64, searchText])
            }
        }
        migrator.registerMigration("daemonPreferencesSensitivityChosen") { db in
            // Before, the preset a daemon was started with was saved as if chosen over the socket, and a preset
            // other than the default was taken as chosen: such a saved one stays chosen.
            try db.execute(
                sql: """
                    ALTER TABLE daemonPreferences ADD COLUMN sensitivityChosen BOOLEAN NOT NULL DEFAULT 0
                        CHECK (sensitivityChosen IN (0, 1));
                    UPDATE daemonPreferences SET sensitivityChosen = (sensitivity != 'medium');
                    """)
        }
        return migrator
    }
}

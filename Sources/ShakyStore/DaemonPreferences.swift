import GRDB

/// The daemon's settings that change live and survive restarts: sound and shake sensitivity.
public struct DaemonPreferences: Codable, Equatable, Sendable {
    /// Whether sound cues play.
    public var soundEnabled: Bool
    /// Cue volume, 0…1.
    public var volume: Double
    /// The shake detector preset: `light`, `medium` or `hard`.
    public var sensitivity: String
    /// Whether ``sensitivity`` was chosen over the socket (`shaky settings --sensitivity`): only then does it win
    /// over the one the daemon is started with (`--sensitivity`, the file's `sensitivity:`).
    public var sensitivityChosen: Bool

    /// Creates preferences.
    public init(
        soundEnabled: Bool = true, volume: Double = 1, sensitivity: String = "medium", sensitivityChosen: Bool = false
    ) {
        self.soundEnabled = soundEnabled
        self.volume = volume
        self.sensitivity = sensitivity
        self.sensitivityChosen = sensitivityChosen
    }

    /// The preferences of a daemon that never saved any.
    public static let `default` = DaemonPreferences()
}

/// The single row of the `daemonPreferences` table.
struct DaemonPreferencesRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "daemonPreferences"
    var id: Int64 = 1
    var soundEnabled: Bool
    var volume: Double
    var sensitivity: String
    var sensitivityChosen: Bool
}

extension AppDatabase {
    /// The saved preferences, or ``DaemonPreferences/default`` when none were saved.
    public func preferences() throws -> DaemonPreferences {
        try read { db in
            guard let record = try DaemonPreferencesRecord.fetchOne(db, key: 1) else { return .default }
            return DaemonPreferences(
                soundEnabled: record.soundEnabled, volume: record.volume, sensitivity: record.sensitivity,
                sensitivityChosen: record.sensitivityChosen)
        }
    }

    /// Saves `preferences`, replacing the previous ones.
    ///
    /// - Throws: ``StoreError/invalidPreferences(problem:)`` for a volume outside 0…1 or an unknown sensitivity.
    public func savePreferences(_ preferences: DaemonPreferences) throws {
        guard (0...1).contains(preferences.volume) else {
            throw StoreError.invalidPreferences(problem: "volume \(preferences.volume) is outside 0…1")
        }
        guard ["light", "medium", "hard"].contains(preferences.sensitivity) else {
            throw StoreError.invalidPreferences(
                problem: "sensitivity “\(preferences.sensitivity)” is not light, medium or hard")
        }
        try write { db in
            try DaemonPreferencesRecord(
                soundEnabled: preferences.soundEnabled, volume: preferences.volume,
                sensitivity: preferences.sensitivity, sensitivityChosen: preferences.sensitivityChosen
            ).save(db)
        }
    }
}

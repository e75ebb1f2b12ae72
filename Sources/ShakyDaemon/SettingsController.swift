import Logging
import ShakyCore
import ShakyProtocol
import ShakyStore

/// The live settings: sound on/off, volume and shake sensitivity. A change takes effect at once and is saved.
public actor SettingsController {
    private let database: AppDatabase
    private let sound: any SoundPlayer
    private let sensitivityChanged: @Sendable (ShakyAPI.Sensitivity) -> Void
    private var preferences: DaemonPreferences

    /// Loads the saved settings and applies them to `sound`; `sensitivityChanged` hears the detector preset.
    public init(
        database: AppDatabase, sound: any SoundPlayer,
        sensitivityChanged: @escaping @Sendable (ShakyAPI.Sensitivity) -> Void
    ) throws {
        self.database = database
        self.sound = sound
        self.sensitivityChanged = sensitivityChanged
        preferences = try database.preferences()
        sound.apply(SoundSettings(enabled: preferences.soundEnabled, volume: preferences.volume))
    }

    /// The settings now.
    public func current() -> ShakyAPI.Settings {
        ShakyAPI.Settings(
            sound: preferences.soundEnabled, volume: preferences.volume,
            sensitivity: ShakyAPI.Sensitivity(rawValue: preferences.sensitivity) ?? .medium)
    }

    /// Changes the settings given, saves them, and applies them.
    public func change(_ request: ShakyAPI.SetSettings) throws(VarlinkReplyError) -> ShakyAPI.Settings {
        var next = preferences
        if let sound = request.sound { next.soundEnabled = sound }
        if let volume = request.volume {
            guard volume.isFinite, (0...1).contains(volume) else {
                throw VarlinkReplyError(
                    "\(ShakyAPI.settingsInterface).InvalidSetting",
                    parameters: ["name": .string("volume"), "message": .string("volume must be between 0 and 1")])
            }
            next.volume = volume
        }
        if let sensitivity = request.sensitivity { next.sensitivity = sensitivity.rawValue }
        do {
            try database.savePreferences(next)
        } catch {
            throw VarlinkReplyError(
                "\(ShakyAPI.settingsInterface).InvalidSetting",
                parameters: ["name": .string("settings"), "message": .string("\(error)")])
        }
        let sensitivityMoved = next.sensitivity != preferences.sensitivity
        preferences = next
        sound.apply(SoundSettings(enabled: next.soundEnabled, volume: next.volume))
        if sensitivityMoved { sensitivityChanged(current().sensitivity) }
        return current()
    }
}

import Logging
import ShakyCore
import ShakyProtocol
import ShakyStore
import Varlink

/// The live settings: sound on/off, volume and shake sensitivity. A change takes effect at once and is saved.
public actor SettingsController {
    private let database: AppDatabase
    private let sound: any SoundPlayer
    private let sensitivityChanged: @Sendable (ShakyAPI.Settings.Sensitivity) -> Void
    private var preferences: DaemonPreferences

    /// Loads the saved settings and applies them to `sound`; `sensitivityChanged` hears the detector preset.
    public init(
        database: AppDatabase, sound: any SoundPlayer,
        sensitivityChanged: @escaping @Sendable (ShakyAPI.Settings.Sensitivity) -> Void
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
            sensitivity: ShakyAPI.Settings.Sensitivity(rawValue: preferences.sensitivity) ?? .medium,
            output: sound.outputState.device, triedDevices: sound.outputState.tried)
    }

    /// Changes the settings given (`nil`: keep), saves them, and applies them.
    public func change(
        sound: Bool? = nil, volume: Double? = nil, sensitivity: ShakyAPI.Settings.Sensitivity? = nil
    ) throws(ShakyAPI.SettingsInterface.ReplyError) -> ShakyAPI.Settings {
        var next = preferences
        if let sound { next.soundEnabled = sound }
        if let volume {
            guard volume.isFinite, (0...1).contains(volume) else {
                throw .invalidSetting(name: "volume", message: "volume must be between 0 and 1")
            }
            next.volume = volume
        }
        if let sensitivity { next.sensitivity = sensitivity.rawValue }
        do {
            try database.savePreferences(next)
        } catch {
            throw .invalidSetting(name: "settings", message: "\(error)")
        }
        let sensitivityMoved = next.sensitivity != preferences.sensitivity
        preferences = next
        self.sound.apply(SoundSettings(enabled: next.soundEnabled, volume: next.volume))
        if sensitivityMoved { sensitivityChanged(current().sensitivity) }
        return current()
    }
}

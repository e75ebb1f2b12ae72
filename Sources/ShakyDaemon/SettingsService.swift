import ShakeDetection
import ShakyProtocol

/// Serves `io.shakywords.Settings` from the settings controller.
struct SettingsService: ShakyAPI.SettingsInterface.Implementation {
    let settings: PreferencesController
    /// Where the damaged database was set aside when the daemon started, if it was.
    var damagedDatabase: String?

    func get() async throws -> ShakyAPI.Settings { reply(await settings.current()) }

    func set(
        sound: Bool?, volume: Double?, sensitivity: ShakyAPI.Settings.Sensitivity?
    ) async throws -> ShakyAPI.Settings {
        do {
            let changed = try await settings.change(
                soundEnabled: sound, volume: volume,
                sensitivity: sensitivity.map { ShakeSensitivity(rawValue: $0.rawValue) ?? .medium })
            return reply(changed)
        } catch {
            throw ShakyAPI.SettingsInterface.ReplyError.invalidSetting(name: error.name, message: error.message)
        }
    }

    private func reply(_ preferences: LivePreferences) -> ShakyAPI.Settings {
        var reply = ShakyAPI.Settings(preferences)
        reply.damagedDatabase = damagedDatabase
        return reply
    }
}

extension ShakyAPI.Settings {
    init(_ settings: LivePreferences) {
        self.init(
            sound: settings.soundEnabled, volume: settings.volume,
            sensitivity: ShakyAPI.Settings.Sensitivity(rawValue: settings.sensitivity.rawValue) ?? .medium,
            output: settings.output.device, triedDevices: settings.output.tried)
    }
}

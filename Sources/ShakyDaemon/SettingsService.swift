import ShakyProtocol

/// Serves `io.shakywords.Settings` from the settings controller.
struct SettingsService: ShakyAPI.SettingsInterface.Implementation {
    let settings: SettingsController

    func get() async throws -> ShakyAPI.Settings { await settings.current() }

    func set(
        sound: Bool?, volume: Double?, sensitivity: ShakyAPI.Settings.Sensitivity?
    ) async throws -> ShakyAPI.Settings {
        try await settings.change(sound: sound, volume: volume, sensitivity: sensitivity)
    }
}

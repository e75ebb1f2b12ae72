import ArgumentParser
import ShakyCore
import ShakyProtocol

extension Shaky {
    /// `shaky settings`: shows or changes the daemon's settings.
    struct Settings: ClientCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change the sound and shake settings.",
            discussion: """
                Without options, shows the settings. Changes apply at once and are kept across restarts; \
                the settings not given stay as they are.

                EXAMPLES:
                  shaky settings --sound off
                  shaky settings --volume 0.5 --sensitivity light
                """)

        @Option(help: "Sound cues (on until changed).")
        var sound: SoundSwitch?

        @Option(
            help: ArgumentHelp("Sound volume, from 0 (silent) to 1, the loudest (1 until changed).", valueName: "0-1"),
            transform: DecimalText.argument)
        var volume: Double?

        @Option(help: "How hard a shake must be to count (shakyd's --sensitivity, medium unless set, until changed).")
        var sensitivity: ShakyAPI.Settings.Sensitivity?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let volume, !(0...1).contains(volume) {
                throw ValidationError("--volume must be between 0 and 1 (e.g. 0.8), not \(volume).")
            }
        }

        func run(client: ShakyClient, console: any Console) async throws {
            let settings: ShakyAPI.Settings
            if sound == nil && volume == nil && sensitivity == nil {
                settings = try await client.settings.get()
            } else {
                settings = try await client.settings.set(sound: sound?.isOn, volume: volume, sensitivity: sensitivity)
            }
            try global.emit(ShakyAPI.SettingsInterface.GetReply(settings: settings), on: console) { _ in
                TextRenderer.settings(settings)
            }
        }
    }
}

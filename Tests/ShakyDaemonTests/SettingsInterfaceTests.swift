import Logging
import ShakeDetection
import ShakyCore
import ShakyDaemon
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// Settings change live (the sound player gets them at once) and survive a restart.
@Suite("Settings over the interface")
struct SettingsInterfaceTests {
    @Test(
        "Set sound off and volume 0.5: Get returns it, the player got it, and a new daemon starts with it",
        arguments: TestDaemon.Mode.allCases)
    func settingsPersist(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-settings")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let defaults = try await client.call(
                "io.shakywords.Settings.Get", as: ShakyAPI.SettingsInterface.GetReply.self)
            #expect(
                defaults.settings == ShakyAPI.Settings(sound: true, volume: 1, sensitivity: .medium, triedDevices: []))

            let changed = try await client.call(
                "io.shakywords.Settings.Set", ShakyAPI.SettingsInterface.SetParameters(sound: false, volume: 0.5),
                as: ShakyAPI.SettingsInterface.GetReply.self)
            #expect(
                changed.settings == ShakyAPI.Settings(sound: false, volume: 0.5, sensitivity: .medium, triedDevices: [])
            )
            #expect(client.soundPlayer.appliedSettings.last == SoundLevel(enabled: false, volume: 0.5))
            #expect(client.soundPlayer.settings == SoundLevel(enabled: false, volume: 0.5))

            let sensitivity = try await client.call(
                "io.shakywords.Settings.Set", ShakyAPI.SettingsInterface.SetParameters(sensitivity: .hard),
                as: ShakyAPI.SettingsInterface.GetReply.self)
            #expect(
                sensitivity.settings
                    == ShakyAPI.Settings(sound: false, volume: 0.5, sensitivity: .hard, triedDevices: []))
            let read = try await client.call("io.shakywords.Settings.Get", as: ShakyAPI.SettingsInterface.GetReply.self)
            #expect(read.settings == sensitivity.settings)
            // The sensor side hears the new preset.
            try await waitUntil("the sensor reports the hard preset") {
                let sensor = try? await client.call(
                    "io.shakywords.Sensor.Status", as: ShakyAPI.SensorInterface.StatusReply.self)
                return sensor?.sensor.sensitivity == .hard
            }
        }
        let player = RecordingSoundPlayer()
        try await TestDaemon.run(mode, stateDirectory: state.path, soundPlayer: player) { client in
            let read = try await client.call("io.shakywords.Settings.Get", as: ShakyAPI.SettingsInterface.GetReply.self)
            #expect(read.settings == ShakyAPI.Settings(sound: false, volume: 0.5, sensitivity: .hard, triedDevices: []))
            #expect(player.appliedSettings.first == SoundLevel(enabled: false, volume: 0.5))
            #expect(player.settings == SoundLevel(enabled: false, volume: 0.5))
            let sensor = try await client.call(
                "io.shakywords.Sensor.Status", as: ShakyAPI.SensorInterface.StatusReply.self)
            #expect(sensor.sensor.sensitivity == .hard)
        }
    }

    /// A daemon on `state`'s folder, started with `sensitivity` (`--sensitivity`), logging to `logs`.
    static func startDaemon(
        in state: TemporaryDirectory, sensitivity: String?, logs: LogRecorder
    ) async throws -> Daemon {
        let configuration = DaemonConfiguration(
            resolving: DaemonOptions(
                socket: state.appending("shaky.sock"), stateDirectory: state.path, input: "none", soundDevice: "none",
                sensitivity: sensitivity))
        return try await Daemon.start(
            configuration: configuration, clock: ManualClock(), accessPolicy: AllowEveryoneAccessPolicy(),
            soundPlayer: RecordingSoundPlayer(), logger: Logger(label: "test") { _ in logs })
    }

    @Test("--sensitivity sets the preset a daemon starts with, until it is changed over the socket")
    func sensitivityFlag() async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-sensitivity")
        defer { state.remove() }
        let logs = LogRecorder()
        func start(sensitivity: String?) async throws -> Daemon {
            try await Self.startDaemon(in: state, sensitivity: sensitivity, logs: logs)
        }
        let notUsed = "the sensitivity given at start is not used"
        var daemon = try await start(sensitivity: "hard")
        #expect(await daemon.settings.current().sensitivity == .hard)
        #expect(await daemon.runtime.sensorReport().sensitivity == .hard)
        _ = try await daemon.settings.change(sensitivity: .light)
        await daemon.shutDown()

        // Changed over the socket: the change is kept, whatever the flag says.
        daemon = try await start(sensitivity: nil)
        #expect(await daemon.settings.current().sensitivity == .light)
        #expect(await daemon.runtime.sensorReport().sensitivity == .light)
        await daemon.shutDown()
        #expect(!logs.messages.withLock { $0 }.contains { $0.contains(notUsed) })

        // Given again at start, it loses to the one chosen over the socket, and the log says so.
        daemon = try await start(sensitivity: "hard")
        #expect(await daemon.settings.current().sensitivity == .light)
        await daemon.shutDown()
        #expect(logs.messages.withLock { $0 }.contains { $0.contains(notUsed) && $0.contains("--sensitivity hard") })
    }

    /// Whether a preset was chosen over the socket was guessed from the saved preferences being the defaults: a preset
    /// given at start was saved, and then stuck (the next start's flag was refused as if chosen over the socket),
    /// while a choice of `medium` over the socket, the default, lost to the next start's flag.
    @Test func aPresetGivenAtStartHoldsForThatStartOnly() async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-sensitivity")
        defer { state.remove() }
        let logs = LogRecorder()
        func start(sensitivity: String?) async throws -> Daemon {
            try await Self.startDaemon(in: state, sensitivity: sensitivity, logs: logs)
        }
        var daemon = try await start(sensitivity: "light")
        #expect(await daemon.settings.current().sensitivity == .light)
        _ = try await daemon.settings.change(volume: 0.5)  // a save of the other preferences chooses no preset
        await daemon.shutDown()
        for (given, expected) in [("hard", ShakeSensitivity.hard), (nil, .medium)] {
            daemon = try await start(sensitivity: given)
            #expect(await daemon.settings.current().sensitivity == expected)
            #expect(await daemon.runtime.sensorReport().sensitivity == expected)
            #expect(await daemon.settings.current().volume == 0.5)
            await daemon.shutDown()
        }
        #expect(!logs.messages.withLock { $0 }.contains { $0.contains("the sensitivity given at start is not used") })

        // Chosen over the socket, the default included, it holds over what a later start is given.
        daemon = try await start(sensitivity: "light")
        _ = try await daemon.settings.change(sensitivity: .medium)
        await daemon.shutDown()
        daemon = try await start(sensitivity: "light")
        #expect(await daemon.settings.current().sensitivity == .medium)
        await daemon.shutDown()
    }
}

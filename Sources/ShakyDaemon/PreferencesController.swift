import Logging
import ShakeDetection
import ShakyCore
import ShakyStore

/// The live preferences: sound on/off, volume and shake sensitivity. A change takes effect at once and is saved.
///
/// It runs on the game's inbox thread, where the game's own saves run: a change's save waits for the disk to sync
/// (a slow SD card), which must not hold up the event loop that serves every connection and watcher.
public actor PreferencesController {
    /// The runtime whose executor, the inbox thread, this actor shares.
    private let runtime: GameRuntime
    private let database: AppDatabase
    private let sound: any SoundPlayer
    private let sensitivityChanged: @Sendable (ShakeSensitivity) -> Void
    private var preferences: DaemonPreferences

    /// Applies `preferences` (the saved ones when `nil`; the daemon passes them with the preset it was started with
    /// in place of one not chosen over the socket) to `sound`; `sensitivityChanged` hears the detector preset. The
    /// actor runs on `runtime`'s inbox thread.
    public init(
        database: AppDatabase, sound: any SoundPlayer, sharingExecutorWith runtime: GameRuntime,
        preferences: DaemonPreferences? = nil, sensitivityChanged: @escaping @Sendable (ShakeSensitivity) -> Void
    ) throws {
        self.runtime = runtime
        self.database = database
        self.sound = sound
        self.sensitivityChanged = sensitivityChanged
        self.preferences = try preferences ?? database.preferences()
        sound.apply(SoundLevel(enabled: self.preferences.soundEnabled, volume: self.preferences.volume))
    }

    /// The runtime's executor, its inbox thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { runtime.unownedExecutor }

    /// The preferences now.
    public func current() -> LivePreferences {
        LivePreferences(
            soundEnabled: preferences.soundEnabled, volume: preferences.volume,
            sensitivity: ShakeSensitivity(rawValue: preferences.sensitivity) ?? .medium,
            output: sound.outputState)
    }

    /// Changes the preferences given (`nil`: keep), saves them, and applies them.
    public func change(
        soundEnabled: Bool? = nil, volume: Double? = nil, sensitivity: ShakeSensitivity? = nil
    ) throws(InvalidSetting) -> LivePreferences {
        var next = preferences
        if let soundEnabled { next.soundEnabled = soundEnabled }
        if let volume {
            guard volume.isFinite, (0...1).contains(volume) else {
                throw InvalidSetting(name: "volume", message: "volume must be between 0 and 1")
            }
            next.volume = volume
        }
        if let sensitivity {
            next.sensitivity = sensitivity.rawValue
            next.sensitivityChosen = true
        }
        do {
            try database.savePreferences(next)
        } catch {
            throw InvalidSetting(name: "settings", message: "\(error)")
        }
        let sensitivityMoved = next.sensitivity != preferences.sensitivity
        preferences = next
        sound.apply(SoundLevel(enabled: next.soundEnabled, volume: next.volume))
        if sensitivityMoved { sensitivityChanged(current().sensitivity) }
        return current()
    }
}

/// The preferences that change live, with where sound goes now: what `Settings.Get` answers.
public struct LivePreferences: Sendable, Equatable {
    /// Sound cues on or off.
    public var soundEnabled: Bool
    /// From 0 to 1.
    public var volume: Double
    /// How hard a shake must be to count.
    public var sensitivity: ShakeSensitivity
    /// Where sound really goes: the open device, or none and the devices tried.
    public var output: SoundOutputState

    /// Creates live preferences.
    public init(
        soundEnabled: Bool, volume: Double, sensitivity: ShakeSensitivity,
        output: SoundOutputState = SoundOutputState(device: nil, tried: [])
    ) {
        self.soundEnabled = soundEnabled
        self.volume = volume
        self.sensitivity = sensitivity
        self.output = output
    }
}

/// A setting that cannot be changed as asked: which one, and why, said for people.
public struct InvalidSetting: Error, Equatable, Sendable {
    /// The setting (`volume`), or `settings` when saving failed.
    public var name: String
    /// What is wrong.
    public var message: String
}

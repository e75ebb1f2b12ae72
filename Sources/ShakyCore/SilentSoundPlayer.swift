import Synchronization

/// A sound player that plays nothing: what the daemon uses when sound is turned off or no device can play.
///
/// It remembers the settings applied, so the game's sound settings still read back as set.
public final class SilentSoundPlayer: SoundPlayer {
    private let current: Mutex<SoundLevel>

    /// Creates a silent player holding `settings`.
    public init(settings: SoundLevel = .default) {
        current = Mutex(settings)
    }

    /// Does nothing.
    public func play(_ cue: SoundCue) {}

    /// Remembers `settings`.
    public func apply(_ settings: SoundLevel) {
        current.withLock { $0 = settings }
    }

    /// The settings last applied.
    public var settings: SoundLevel { current.withLock { $0 } }
}

import ShakyCore
import Synchronization

/// A sound player that plays nothing and remembers every cue asked for and every settings change applied.
public final class RecordingSoundPlayer: SoundPlayer {
    private struct Log {
        var cues: [SoundCue] = []
        var applied: [SoundLevel] = []
        var current: SoundLevel
    }

    private let log: Mutex<Log>

    /// Creates a player holding `settings`, with empty logs.
    public init(settings: SoundLevel = .default) {
        log = Mutex(Log(current: settings))
    }

    /// Records `cue`.
    public func play(_ cue: SoundCue) {
        log.withLock { $0.cues.append(cue) }
    }

    /// Records `settings` and makes them the current ones.
    public func apply(_ settings: SoundLevel) {
        log.withLock {
            $0.applied.append(settings)
            $0.current = settings
        }
    }

    /// The settings last applied.
    public var settings: SoundLevel { log.withLock { $0.current } }

    /// Every cue asked for, oldest first.
    public var playedCues: [SoundCue] { log.withLock { $0.cues } }

    /// Every settings change applied, oldest first.
    public var appliedSettings: [SoundLevel] { log.withLock { $0.applied } }
}

/// Plays sound cues without ever holding up the caller.
///
/// The runtime calls ``play(_:)`` from its one inbox: an implementation only records the request and returns at
/// once. It never throws and never waits for a device; a broken or missing device means silence, not an error.
/// Real players are named for their backing (`ALSASoundPlayer`); fakes for their behaviour.
public protocol SoundPlayer: Sendable {
    /// Starts `cue` as soon as possible, mixed over whatever is playing. Returns at once.
    func play(_ cue: SoundCue)
    /// Applies sound settings live: mute stops what plays, volume changes what plays next and what is playing.
    func apply(_ settings: SoundLevel)
    /// The settings last applied.
    var settings: SoundLevel { get }
    /// Where sound goes now: the device open, or silence and the devices tried.
    var outputState: SoundOutputState { get }
}

extension SoundPlayer {
    /// A player without a device: silent, nothing tried.
    public var outputState: SoundOutputState { SoundOutputState(device: nil, tried: []) }
}

/// Where a sound player's output goes, for reports to the host.
public struct SoundOutputState: Sendable, Equatable {
    /// The device sound plays on now; nil when the player is silent.
    public var device: String?
    /// The devices tried, in order (empty when none is configured: `sound-device none`).
    public var tried: [String]

    /// Creates a state.
    public init(device: String?, tried: [String]) {
        self.device = device
        self.tried = tried
    }
}

/// Plays sound cues without ever holding up the caller.
///
/// The runtime calls ``play(_:)`` from its one inbox: an implementation only records the request and returns at
/// once. It never throws and never waits for a device; a broken or missing device means silence, not an error.
/// Real players are named for their backing (`ALSASoundPlayer`); fakes for their behaviour.
public protocol SoundPlayer: Sendable {
    /// Starts `cue` as soon as possible, mixed over whatever is playing. Returns at once.
    func play(_ cue: SoundCue)
    /// Applies sound settings live: mute stops what plays, volume changes what plays next and what is playing.
    func apply(_ settings: SoundSettings)
    /// The settings last applied.
    var settings: SoundSettings { get }
}

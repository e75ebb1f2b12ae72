/// The order in which the player tries its devices, when it may try again, and what is worth logging: pure.
///
/// The configured device comes first, then the fallbacks (`default`); when none opens the player is silent and
/// tries the whole list again once ``retryInterval`` has passed, on the next cue. A device that opens but breaks
/// before it played anything (one that fails on every write) counts as failed too: it is not reopened before
/// ``retryInterval``. Each failure (a device and an errno) is reported once until a device plays again; the fall
/// to silence is reported once per episode.
public struct SoundDeviceFallback: Sendable {
    /// The devices to try, in order, without repeats.
    public let devices: [String]
    /// How long the player stays silent before trying the devices again.
    public let retryInterval: Duration
    private var retryAfter: Duration?
    private var reportedFailures: Set<String> = []
    private var reportedSilence = false
    private var playedSinceOpen = false
    private var brokeBeforePlaying = false

    /// Creates the order `[device] + fallbacks`, dropping repeats.
    public init(device: String, fallbacks: [String], retryInterval: Duration) {
        var seen: Set<String> = []
        devices = ([device] + fallbacks).filter { !$0.isEmpty && seen.insert($0).inserted }
        self.retryInterval = retryInterval
    }

    /// Whether the devices may be tried at `now` (always, unless every one failed less than a retry interval ago).
    public func mayTry(at now: Duration) -> Bool {
        guard let retryAfter else { return true }
        return now >= retryAfter
    }

    /// Records that `device` failed with `error`; returns whether this failure is new and should be logged.
    public mutating func recordFailure(_ error: DeviceError) -> Bool {
        reportedFailures.insert("\(error.device)\u{0}\(error.code)").inserted
    }

    /// Records that every device failed at `now`; returns whether the fall to silence should be logged.
    public mutating func recordAllFailed(at now: Duration) -> Bool {
        retryAfter = now + retryInterval
        defer { reportedSilence = true }
        return !reportedSilence
    }

    /// Records that a device opened; returns whether that is worth logging (not when it is a retry of a device
    /// that broke before it played).
    public mutating func recordOpened() -> Bool {
        retryAfter = nil
        playedSinceOpen = false
        return !brokeBeforePlaying
    }

    /// Records that the open device played what it was given and stopped cleanly: it works, so failures and
    /// silence will be reported afresh.
    public mutating func recordPlayed() {
        guard !playedSinceOpen else { return }
        playedSinceOpen = true
        brokeBeforePlaying = false
        reportedFailures.removeAll()
        reportedSilence = false
    }

    /// Records that the open device broke at `now`. One that had played (unplugged, say) may be replaced at once;
    /// one that broke before it played anything is tried again only after ``retryInterval``, so that a device
    /// failing on every write is not reopened, and logged, on every cue.
    public mutating func recordLost(at now: Duration) {
        if playedSinceOpen {
            retryAfter = nil
        } else {
            retryAfter = now + retryInterval
            brokeBeforePlaying = true
        }
        playedSinceOpen = false
    }
}

/// The order in which the player tries its devices, when it may try again, and what is worth logging: pure.
///
/// The configured device comes first, then the fallbacks (`default`); when none opens the player is silent and
/// tries the whole list again once ``retryInterval`` has passed, on the next cue. A device that opens but breaks
/// before it played anything (one that fails on every write) counts as failed too: it is not reopened before
/// ``retryInterval``. Each failure (a device and an errno) is reported once until a device plays again; the fall
/// to silence is reported once per episode. While a fallback plays, the devices before it are tried again once per
/// ``retryInterval`` (``shouldTryPreferred(at:)``): a USB speaker late at boot, or unplugged for a moment, is
/// played on again once it is back.
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
    /// The place in ``devices`` of the device open now, and when the list was last walked from the top.
    private var opened: (index: Int, at: Duration)?
    /// The last device whose opening was announced.
    private var announced: String?

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

    /// Records that `device` opened at `now`; returns whether that is worth logging (not when it is a retry of a
    /// device that broke before it played, nor the same fallback opened again after the devices before it were
    /// tried).
    public mutating func recordOpened(_ device: String, at now: Duration) -> Bool {
        retryAfter = nil
        playedSinceOpen = false
        opened = devices.firstIndex(of: device).map { ($0, now) }
        defer { announced = device }
        return !brokeBeforePlaying && device != announced
    }

    /// Whether the device open now is a fallback that has played for a ``retryInterval`` since the devices before
    /// it were tried: the player closes it once idle, so that the next cue tries the list from the top.
    public func shouldTryPreferred(at now: Duration) -> Bool {
        guard let opened, opened.index > 0 else { return false }
        return now - opened.at >= retryInterval
    }

    /// Records that the open device was closed (broken, or left to try the devices before it).
    public mutating func recordClosed() {
        opened = nil
    }

    /// Records that the open device played what it was given and stopped cleanly: it works, so failures and
    /// silence will be reported afresh.
    public mutating func recordPlayed() {
        guard !playedSinceOpen else { return }
        playedSinceOpen = true
        brokeBeforePlaying = false
        reportedSilence = false
        // A fallback playing leaves the failures of the devices before it reported: they are tried again every
        // retry interval, and would otherwise be logged each time.
        if opened?.index ?? 0 == 0 { reportedFailures.removeAll() }
    }

    /// Records that the open device broke at `now`. One that had played (unplugged, say) may be replaced at once;
    /// one that broke before it played anything is tried again only after ``retryInterval``, so that a device
    /// failing on every write is not reopened, and logged, on every cue.
    ///
    /// - Returns: how long the devices are left alone before the next cue tries them (zero: the next cue does).
    @discardableResult
    public mutating func recordLost(at now: Duration) -> Duration {
        defer { playedSinceOpen = false }
        if playedSinceOpen {
            retryAfter = nil
            announced = nil  // one that comes back (re-plugged) is announced again
            return .zero
        }
        retryAfter = now + retryInterval
        brokeBeforePlaying = true
        return retryInterval
    }
}

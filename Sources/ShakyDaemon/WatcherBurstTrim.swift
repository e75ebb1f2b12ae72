/// When a burst of watchers that hung up should give its memory back (`malloc_trim`): decides, the hub trims.
///
/// A burst is at least ``burst`` watchers at once. When a quarter of its peak is left, its memory is trimmed at
/// once; but the connections of the last watchers to leave are freed after they are removed, on NIO's loops. So
/// the trim is done again at the next published event or a second later (``WatcherHub/drainTrimInterval``),
/// whichever comes first, and at each such step after that as long as watchers are still leaving between steps: the
/// first step with no hang-up since the one before ends the burst. One hang-up never trims on its own, and a step
/// trims only while a burst drains.
struct WatcherBurstTrim: Equatable, Sendable {
    /// At least this many watchers, most of them gone, make a burst worth giving its memory back after.
    static let burst = 32

    /// The most watchers since memory was last given back.
    private(set) var peak = 0
    /// A burst is draining: the next events trim what the last hang-ups freed.
    private(set) var isDraining = false
    /// A watcher left since the last trim.
    private var leftSinceTrim = false
    /// A watcher left since the last event.
    private var leftSinceEvent = false

    /// A watcher joined; `count` watchers are attached now.
    mutating func joined(count: Int) {
        peak = max(peak, count)
    }

    /// A watcher left; `count` watchers are attached now. Returns whether to trim now: a burst is three quarters gone.
    mutating func left(count: Int) -> Bool {
        leftSinceEvent = true
        leftSinceTrim = true
        guard peak >= Self.burst, count * 4 <= peak else { return false }
        peak = count
        isDraining = true
        leftSinceTrim = false
        return true
    }

    /// An event is being published, or the hub's timer came (a step of the drain). Returns whether to trim now: a
    /// burst is draining and watchers left since the last trim.
    mutating func published() -> Bool {
        guard isDraining else { return false }
        if !leftSinceEvent { isDraining = false }
        leftSinceEvent = false
        let trim = leftSinceTrim
        leftSinceTrim = false
        return trim
    }
}

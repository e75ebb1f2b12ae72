/// How long an evdev reader may sleep before the kernel's queue for it could overflow.
///
/// The kernel keeps each reader's events in a buffer of its own (`evdev_compute_buffer_size`): eight reports of
/// the size the input core estimates for the device, at least 64 events, rounded up to a power of two. The
/// estimate (`input_estimate_events_per_packet`) is one event per axis the device declares, seven for keys and
/// `MSC_TIMESTAMP`, and the `SYN_REPORT`; a driver may only raise it. There is no call that tells a reader its
/// buffer's size; when it overflows, the kernel sends `SYN_DROPPED` and libevdev drops what it holds. So a paced
/// reader sleeps at most half the time that buffer takes to fill at the rate events arrive. An accelerometer (three
/// axes: 11 events a report, a buffer of 128) sending four events a report at 100 Hz fills it in 320 ms, far beyond
/// the rest period (75 ms); a DualSense's motion node (six axes, a timestamp: 14, 128) at 250 Hz, eight events a
/// report, in 64 ms: it is read every 32 ms.
///
/// Pure: the reader says what each wake-up read and when, and asks for ``longestPeriod``. The rate it goes by rises
/// at once and falls slowly; a report longer than the estimate (a driver that raised it) counts eightfold as well;
/// and every `SYN_DROPPED` halves the share of the buffer a sleep may fill, in case the kernel's buffer is smaller
/// than judged.
struct EvdevQueuePacing: Sendable, Equatable {
    /// The fewest events the kernel buffers for one reader.
    static let minimumBufferEvents = 64
    /// The reports of the estimated size the kernel buffers for one reader.
    static let bufferReports = 8
    /// The longest sleep before the rate is known, seconds.
    static let firstPeriod = ReadPacing.motionPeriod
    /// The shortest sleep this ever asks for, seconds.
    static let shortestPeriod = 0.001

    /// The events the kernel's buffer for this reader holds, as judged from the device's axes and its reports.
    private(set) var bufferEvents: Int
    /// Events per second, as last judged (0: not yet known).
    private(set) var eventsPerSecond = 0.0
    /// The share of the buffer a sleep may fill.
    private(set) var share = 0.5
    private var lastRead: Double?

    /// Pacing for a device declaring `axes` absolute (not multi-touch) and relative axes: the kernel's estimate of
    /// its report is `axes + 8` events.
    init(axes: Int) {
        bufferEvents = Self.buffer(forReportsOf: max(0, min(axes, 1024)) + 8)
    }

    /// The kernel's buffer for reports of `events` events: eight of them, at least 64 events, a power of two.
    static func buffer(forReportsOf events: Int) -> Int {
        let wanted = max(minimumBufferEvents, bufferReports * max(1, min(events, 1 << 20)))
        var size = 1
        while size < wanted { size <<= 1 }
        return size
    }

    /// A report of `events` events (its `SYN_REPORT` included) was read.
    mutating func reportEnded(events: Int) {
        bufferEvents = max(bufferEvents, Self.buffer(forReportsOf: events))
    }

    /// A wake-up at `now` (CLOCK_MONOTONIC seconds) read `events` events; `dropped`: the kernel's buffer had
    /// overflowed (`SYN_DROPPED`).
    mutating func read(events: Int, at now: Double, dropped: Bool) {
        if dropped { share = max(share / 2, 1.0 / 64) }
        defer { lastRead = now }
        guard let lastRead, now > lastRead, events > 0 else { return }
        let rate = Double(events) / (now - lastRead)
        guard rate.isFinite else { return }
        // Up at once (a faster device must not overflow the buffer); down by an eighth of the gap per wake-up.
        eventsPerSecond = rate >= eventsPerSecond ? rate : eventsPerSecond + (rate - eventsPerSecond) / 8
    }

    /// The longest the reader may sleep now, seconds.
    var longestPeriod: Double {
        guard eventsPerSecond > 0 else { return Self.firstPeriod }
        let period = share * Double(bufferEvents) / eventsPerSecond
        return period.isFinite ? max(period, Self.shortestPeriod) : Self.shortestPeriod
    }
}

/// Turns an evdev device's reports into sample times: the kernel's event time, or — where the device sends
/// `MSC_TIMESTAMP` (hid-playstation, hid-nintendo) — the hardware's own clock, anchored to the event time.
///
/// hid-nintendo delivers three IMU samples per report, all with nearly the same event time; only the
/// `MSC_TIMESTAMP` of each (microseconds on a 32-bit counter that wraps) says they were taken 5 ms apart. The
/// clock anchors the hardware counter to the event time of the first report, follows the counter from then on
/// (across its wrap-around), and re-anchors when the two drift more than ``maximumDrift`` apart (a reconnect, a
/// reset counter, dropped events). Times only ever increase: a report that would not is dropped, with the
/// reason. Event times that go back by more than ``largestStepBack`` are a clock set back, not a late report (a
/// device that kept the wall clock's event times, which NTP or a person steps): times go on from the previous
/// sample's instead of every report being dropped until the clock catches up.
///
/// The counter's pace is checked against the event times over its first ``paceWindow``: Linux 6.1's hid-nintendo
/// (joycon_parse_imu_report) advances `MSC_TIMESTAMP` by two report periods per report (once for the report and
/// once more over its three samples), so its counter runs at twice real time. A counter found more than a quarter
/// off is followed at the event times' pace from then on; samples that arrive together in one report (event times
/// under a millisecond apart) keep the counter's own spacing between them, which that driver gets right.
///
/// The reading loop calls ``hardwareTimestamp(_:)`` for each `EV_MSC/MSC_TIMESTAMP` event and
/// ``sampleTime(eventTime:)`` at each `SYN_REPORT`.
public struct EvdevSampleClock: Sendable {
    /// How far the hardware clock may run from the event times before it is re-anchored, seconds.
    public static let maximumDrift = 0.5
    /// How much of the hardware clock is watched before its pace against the event times is judged, seconds.
    public static let paceWindow = 0.25
    /// How far event times may go back before they are taken for a clock set back, seconds.
    public static let largestStepBack = 1.0
    /// The interval given to the first sample after the event clock was set back, seconds.
    static let intervalAfterStepBack = 0.001

    /// What a report's time came out as.
    public enum Outcome: Sendable, Equatable {
        /// The sample's time, seconds on the event clock (CLOCK_MONOTONIC).
        case sample(Double)
        /// The report is dropped: its time would not be after the previous sample's.
        case dropped(reason: String)
    }

    private var pending: UInt32?
    private var anchor: (event: Double, hardware: UInt32, elapsed: Double)?
    private var lastHardware: UInt32 = 0
    private var elapsed = 0.0
    private var last = -Double.infinity
    private var lastEvent = -Double.infinity
    /// Added to the times handed out: what the event clock was set back by, so far.
    private var shift = 0.0
    /// Event seconds per hardware second, once judged.
    private var pace: Double?
    /// Where the pace is measured from.
    private var paceStart: (event: Double, elapsed: Double)?

    /// A clock with nothing seen yet.
    public init() {}

    /// Whether the device has sent hardware timestamps.
    public var usesHardwareTime: Bool { anchor != nil }

    /// Takes the value of an `MSC_TIMESTAMP` event (microseconds) for the report in progress.
    public mutating func hardwareTimestamp(_ value: Int32) {
        pending = UInt32(bitPattern: value)
    }

    /// Ends a report at the kernel's `eventTime` (seconds); returns its sample time or why it is dropped.
    public mutating func sampleTime(eventTime: Double) -> Outcome {
        var time = eventTime
        let sameReport = eventTime - lastEvent < 0.001
        lastEvent = eventTime
        if let hardware = pending {
            pending = nil
            if let current = anchor {
                let step = Double(hardware &- lastHardware) / 1_000_000  // modulo 2³²: survives the wrap
                let before = elapsed
                elapsed += step
                lastHardware = hardware
                if !sameReport { judgePace(eventTime: eventTime, before: before) }
                let candidate = (anchor ?? current).event + (elapsed - (anchor ?? current).elapsed) * (pace ?? 1)
                if sameReport, step > 0, step <= 0.05, last.isFinite {
                    time = last + step  // one report's samples, spaced as the device took them
                } else if abs(candidate - eventTime) > Self.maximumDrift {
                    anchor = (eventTime, hardware, elapsed)
                } else {
                    time = candidate
                }
            } else {
                lastHardware = hardware
                anchor = (eventTime, hardware, elapsed)
                if pace == nil { paceStart = (eventTime, elapsed) }
            }
        }
        if time < last - Self.largestStepBack {
            // The clock was set back: go on from the previous sample, in the new clock's times from now on.
            shift += last - time + Self.intervalAfterStepBack
            last = time
            anchor = nil
            paceStart = nil
            return .sample(time + shift)
        }
        guard time > last else {
            return .dropped(
                reason: "its time \(time + shift) s is not after the previous sample's \(last + shift) s (the device's "
                    + "clock repeated or went back)")
        }
        last = time
        return .sample(time + shift)
    }

    /// Once the hardware clock has run ``paceWindow``, compares its pace with the event times' (at the first sample
    /// of a report, as the event times are the reports'); a pace more than a quarter off is kept, and the anchor
    /// moves to the previous sample so that times go on from there. Such a pace is measured again at every report
    /// over the whole time since, so that it grows more exact and the times do not drift from the event times.
    private mutating func judgePace(eventTime: Double, before: Double) {
        guard let start = paceStart, elapsed - start.elapsed >= Self.paceWindow, pace != 1 else { return }
        let measured = (eventTime - start.event) / (elapsed - start.elapsed)
        guard measured.isFinite, measured > 0, abs(measured - 1) > 0.25 else {
            if pace == nil { pace = 1 }
            return
        }
        if pace == nil, last.isFinite, let current = anchor { anchor = (last, current.hardware, before) }
        pace = measured
    }

    /// Forgets the hardware anchor (after `SYN_DROPPED`: events were lost, so the counter may have moved on).
    public mutating func resynchronise() {
        pending = nil
        anchor = nil
        lastEvent = -Double.infinity
    }
}

/// Turns an evdev device's reports into sample times: the kernel's event time, or — where the device sends
/// `MSC_TIMESTAMP` (hid-playstation, hid-nintendo) — the hardware's own clock, anchored to the event time.
///
/// hid-nintendo delivers three IMU samples per report, all with nearly the same event time; only the
/// `MSC_TIMESTAMP` of each (microseconds on a 32-bit counter that wraps) says they were taken 5 ms apart. The
/// clock anchors the hardware counter to the event time of the first report, follows the counter from then on
/// (across its wrap-around), and re-anchors when the two drift more than ``maximumDrift`` apart (a reconnect, a
/// reset counter, dropped events). Times only ever increase: a report that would not is dropped, with the
/// reason.
///
/// The reading loop calls ``hardwareTimestamp(_:)`` for each `EV_MSC/MSC_TIMESTAMP` event and
/// ``sampleTime(eventTime:)`` at each `SYN_REPORT`.
public struct EvdevSampleClock: Sendable {
    /// How far the hardware clock may run from the event times before it is re-anchored, seconds.
    public static let maximumDrift = 0.5

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
        if let hardware = pending {
            pending = nil
            if let current = anchor {
                elapsed += Double(hardware &- lastHardware) / 1_000_000  // modulo 2³²: survives the wrap
                lastHardware = hardware
                let candidate = current.event + (elapsed - current.elapsed)
                if abs(candidate - eventTime) > Self.maximumDrift {
                    anchor = (eventTime, hardware, elapsed)
                } else {
                    time = candidate
                }
            } else {
                lastHardware = hardware
                anchor = (eventTime, hardware, elapsed)
            }
        }
        guard time > last else {
            return .dropped(
                reason: "its time \(time) s is not after the previous sample's \(last) s (the device's clock repeated "
                    + "or went back)")
        }
        last = time
        return .sample(time)
    }

    /// Forgets the hardware anchor (after `SYN_DROPPED`: events were lost, so the counter may have moved on).
    public mutating func resynchronise() {
        pending = nil
        anchor = nil
    }
}

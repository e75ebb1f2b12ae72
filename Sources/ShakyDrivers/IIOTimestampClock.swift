#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Turns an IIO device's buffer timestamps into CLOCK_MONOTONIC seconds, whatever its
/// `current_timestamp_clock` says.
///
/// shakyd asks for `monotonic`; when it may not write that attribute (an old udev rule) the kernel keeps
/// stamping with `realtime`, which jumps with NTP and the user's clock. Such times are shifted by the
/// difference between the two clocks, measured once when reading starts.
public struct IIOTimestampClock: Sendable, Equatable {
    /// Seconds to add to a kernel timestamp to get CLOCK_MONOTONIC.
    public let offset: Double
    /// The clock the kernel stamps with, as read back (`monotonic`, `realtime`, `boottime`…).
    public let clockName: String

    /// A clock for `clockName`; `realtimeMinusMonotonic` and `boottimeMinusMonotonic` are the clocks'
    /// differences now.
    public init(clockName: String?, realtimeMinusMonotonic: Double, boottimeMinusMonotonic: Double) {
        let name = clockName ?? "monotonic"
        self.clockName = name
        switch name {
        case "realtime", "realtime_coarse", "tai": offset = -realtimeMinusMonotonic
        case "boottime": offset = -boottimeMinusMonotonic
        default: offset = 0
        }
    }

    /// A clock for `clockName`, with the clocks' differences measured now.
    public init(clockName: String?) {
        func seconds(_ clock: clockid_t) -> Double {
            var now = timespec()
            clock_gettime(clock, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let monotonic = seconds(CLOCK_MONOTONIC)
        self.init(
            clockName: clockName, realtimeMinusMonotonic: seconds(CLOCK_REALTIME) - monotonic,
            boottimeMinusMonotonic: seconds(CLOCK_BOOTTIME) - monotonic)
    }

    /// A kernel timestamp (seconds) on CLOCK_MONOTONIC.
    public func monotonic(_ kernelSeconds: Double) -> Double { kernelSeconds + offset }
}

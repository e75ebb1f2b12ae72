import Foundation

/// The share of the machine's CPU time that a virtual machine's host took for itself (`steal` in `/proc/stat`)
/// between two readings: on a shared machine it moves every figure, so each benchmark prints it beside them.
struct HostSteal {
    /// The `cpu` line's counters (in clock ticks) at the reading: steal, and all of them together.
    private let steal: UInt64
    private let total: UInt64

    /// Reads `/proc/stat` now; `nil` where it cannot be read or has no steal column (not Linux, an old kernel).
    init?() {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user's).
        let counters = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard counters.count == 8 else { return nil }
        steal = counters[7]
        total = counters.reduce(0, &+)
    }

    /// The share of all CPU time since `earlier` that the host took, from 0 to 1 (0 when no time passed).
    func share(since earlier: HostSteal) -> Double {
        let elapsed = total &- earlier.total
        guard elapsed > 0, total >= earlier.total, steal >= earlier.steal else { return 0 }
        return Double(steal - earlier.steal) / Double(elapsed)
    }
}

/// Notices a buffered device that never delivers a sample: its data-ready interrupt is not wired (common on
/// GY-521 MPU-6050 boards), so the kernel's trigger never fires and the buffer stays empty.
///
/// Pure: the reading loop says when reading started and when samples arrive, asks how long it may wait
/// (``remaining(at:)``), and once ``isStarved(at:)``, falls back to polling. Once a sample has arrived the
/// watchdog stays quiet: a device that pauses is not a device that never started.
public struct SampleWatchdog: Sendable, Equatable {
    /// How long to wait for the first sample, seconds.
    public let timeout: Double
    private var started: Double
    private var delivered = false

    /// A watchdog for a device delivering every `period` seconds: it waits `periods` periods, but at least
    /// `minimum` seconds (sensors take a moment to start).
    public init(period: Double, periods: Double = 10, minimum: Double = 1, startedAt now: Double) {
        let wanted = period.isFinite && period > 0 ? period * periods : minimum
        timeout = max(wanted, minimum)
        started = now
    }

    /// A sample arrived.
    public mutating func sampleArrived() {
        delivered = true
    }

    /// Whether no sample came within the timeout.
    public func isStarved(at now: Double) -> Bool {
        !delivered && now - started >= timeout
    }

    /// How long the loop may wait for data before asking again, milliseconds (-1: no limit, a sample came).
    public func remaining(at now: Double) -> Int32 {
        guard !delivered else { return -1 }
        let left = max(0, timeout - (now - started))
        return Int32(min((left * 1000).rounded(.up), 60_000))
    }
}

/// A buffered device whose buffer delivered nothing within its watchdog's timeout.
public struct BufferNeverDeliveredError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node.
    public var device: String
    /// How long it was given, seconds.
    public var timeout: Double

    public var description: String {
        "\(device) delivered no sample within \(timeout) s of enabling its buffer (is its interrupt line wired?)"
    }
}

/// One accelerometer reading: specific force on three axes, including gravity.
///
/// Axes follow the IIO (and Android) sign convention: a device lying face-up at rest reads
/// `z ≈ +9.81`. Units are m/s². The timestamp is in seconds on a monotonic clock: the kernel's
/// timestamp for a live device, or the trace's own clock for a replayed recording.
public struct AccelSample: Sendable, Hashable, Codable {
    /// Seconds on a monotonic clock; strictly increasing within one source.
    public var timestamp: Double
    /// Specific force along x, m/s².
    public var x: Double
    /// Specific force along y, m/s².
    public var y: Double
    /// Specific force along z, m/s².
    public var z: Double

    /// Creates a sample.
    public init(timestamp: Double, x: Double, y: Double, z: Double) {
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.z = z
    }

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665
}

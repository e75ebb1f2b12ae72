/// A detected shake: when the detector fired and how hard the device was moving.
public struct ShakeEvent: Sendable, Equatable, Hashable {
    /// The timestamp of the sample at which the detector fired, seconds on the samples' clock.
    public var timestamp: Double
    /// The largest gravity-removed acceleration in the judged window, m/s².
    public var peakMagnitude: Double

    /// Creates an event.
    public init(timestamp: Double, peakMagnitude: Double) {
        self.timestamp = timestamp
        self.peakMagnitude = peakMagnitude
    }
}

import ShakyCore

/// Keeps sample times strictly increasing, as a trace needs them (`shakyd detect` refuses a trace whose time
/// goes backwards or repeats): a sample whose time does not advance is dropped and counted, so whoever writes
/// can say why.
public struct SampleTimeGuard: Sendable, Equatable {
    private var last = -Double.infinity
    /// Samples dropped so far.
    public private(set) var dropped = 0

    /// A guard with nothing seen yet.
    public init() {}

    /// Whether `sample` may be written (its time is finite and after the last admitted one).
    public mutating func admit(_ sample: AccelSample) -> Bool {
        guard sample.timestamp.isFinite, sample.timestamp > last else {
            dropped += 1
            return false
        }
        last = sample.timestamp
        return true
    }
}

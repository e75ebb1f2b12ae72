/// Choosing an IIO sampling frequency from what a device offers in `sampling_frequency_available`.
public enum IIOSamplingFrequency {
    /// The offered frequency nearest to `wanted` (ties go to the higher one), or `nil` when nothing is offered.
    ///
    /// `available` is the kernel's text: a list (`"1.56 6.25 12.5 50 100"`) or a range (`"[1 1 200]"`,
    /// minimum, step, maximum).
    public static func nearest(to wanted: Double, available: String) -> Double? {
        let text = available.trimmingWhitespace()
        if text.hasPrefix("["), text.hasSuffix("]") {
            let numbers = text.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                .compactMap { Double($0) }
            guard numbers.count == 3, numbers[0] <= numbers[2] else { return nil }
            let (low, step, high) = (numbers[0], numbers[1], numbers[2])
            let clamped = min(max(wanted, low), high)
            guard step > 0 else { return clamped }
            return min(low + ((clamped - low) / step).rounded() * step, high)
        }
        let offered = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }
            .filter { $0 > 0 && $0.isFinite }
        return offered.min { a, b in
            let (da, db) = (abs(a - wanted), abs(b - wanted))
            return da == db ? a > b : da < db
        }
    }

    /// A frequency as the kernel likes it written: `100`, `12.5`.
    public static func text(_ frequency: Double) -> String {
        frequency == frequency.rounded() && abs(frequency) < 1e12 ? String(Int64(frequency)) : String(frequency)
    }
}

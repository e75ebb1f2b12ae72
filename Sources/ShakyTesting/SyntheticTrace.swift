import Foundation

/// Recorded-trace files made up for tests: a device at 100 Hz lying face up, shaken at 4 Hz along one axis for a
/// while, in the CSV format `shakyd record` writes.
public enum SyntheticTrace {
    /// The axis a synthetic shake moves along (both are across gravity when the device lies face up).
    public enum Axis: Sendable {
        case x
        case y
    }

    /// `seconds` of samples named `device`, shaken from `start` to `end` (seconds from the first sample) at
    /// `peakG` along `axis`, still before and after.
    public static func shake(
        device: String, seconds: Double, shakingFrom start: Double, to end: Double, peakG: Double = 2,
        along axis: Axis = .x
    ) -> String {
        var lines = ["# device: \(device)", "# rate: 100", "t,x,y,z"]
        for index in 0..<Int((seconds * 100).rounded()) {
            let time = Double(index) / 100
            let motion = time >= start && time < end ? peakG * 9.80665 * sin(2 * Double.pi * 4 * (time - start)) : 0
            let (x, y) = axis == .x ? (motion, 0) : (0, motion)
            lines.append(String(format: "%.2f,%.4f,%.4f,9.8100", time, x, y))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

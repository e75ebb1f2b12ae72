import Foundation

/// A size in mebibytes as a refusal says it.
public enum MebibyteText {
    /// `bytes` in MiB with one decimal, rounded up: a size just over a limit never reads as the limit itself ("16.1",
    /// not "16.0", for one byte over 16 MiB).
    public static func roundedUp(_ bytes: Int) -> String {
        String(format: "%.1f", (Double(bytes) * 10 / 1_048_576).rounded(.up) / 10)
    }
}

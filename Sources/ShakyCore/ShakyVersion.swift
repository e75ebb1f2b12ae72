/// The version of Shaky Words, which both programs print for `--version` and the daemon reports over
/// Varlink (`org.varlink.service.GetInfo`).
public enum ShakyVersion {
    /// The release's version number.
    public static let current = "0.1.0"
}

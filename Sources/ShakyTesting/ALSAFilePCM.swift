/// alsa-lib configurations for tests that capture what is played: PCMs of alsa-lib's `file` plugin with a `null`
/// slave, which write the raw frames they are given to a file (no sound card needed).
public enum ALSAFilePCM {
    /// The definition of one PCM named `name` that writes raw frames to the file at `capturePath`.
    public static func definition(name: String, capturePath: String) -> String {
        """
        pcm.\(name) {
            type file
            slave.pcm "null"
            file "\(capturePath)"
            format "raw"
        }

        """
    }

    /// A whole configuration for `ALSA_CONFIG_PATH`: alsa-lib's own, then one capture PCM per entry of `pcms`
    /// (name, capture file path).
    public static func configuration(_ pcms: [(name: String, capturePath: String)]) -> String {
        "</usr/share/alsa/alsa.conf>\n" + pcms.map { definition(name: $0.name, capturePath: $0.capturePath) }.joined()
    }
}

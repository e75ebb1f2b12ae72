/// Where the configuration file says something: its path and, when known, the line; written `path:line`, as the
/// file's refusals begin.
public struct ConfigurationFilePlace: Equatable, Sendable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line.
    public var line: Int?

    /// Creates a place.
    public init(path: String, line: Int?) {
        self.path = path
        self.line = line
    }

    public var description: String {
        if let line { "\(path):\(line)" } else { path }
    }

    /// The input `text` as what is said about it names it: `--input X`, or `input X, set in path:line` when the
    /// configuration file at `place` set it, so that no message names a flag the host never gave.
    public static func inputName(_ text: String, setIn place: ConfigurationFilePlace?) -> String {
        place.map { "input \(text), set in \($0)" } ?? "--input \(text)"
    }
}

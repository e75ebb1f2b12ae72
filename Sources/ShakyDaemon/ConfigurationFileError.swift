import Foundation

/// A configuration file that cannot be used, with the place and the problem.
public struct ConfigurationFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line, when the problem is on one.
    public var line: Int?
    /// What is wrong.
    public var problem: String

    /// Where in the file: `path:line`, or the path alone.
    public var place: ConfigurationFilePlace { ConfigurationFilePlace(path: path, line: line) }

    public var description: String { "\(place): \(problem)" }
}

import Foundation

/// A fresh, empty directory under `/tmp`, with a short path so Unix socket paths inside it stay under the
/// 108-byte limit.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory, named `prefix` plus a random suffix.
    public init(prefix: String = "shaky-test") throws {
        path = "/tmp/\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

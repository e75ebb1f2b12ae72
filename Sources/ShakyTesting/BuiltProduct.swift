import Foundation

/// The project's executables as `swift build` left them, found next to the running test bundle, and the checkout
/// they were built from: the one way tests find built products and the repository's files.
public enum BuiltProduct {
    /// The executable is not built.
    public struct Missing: Error, CustomStringConvertible {
        /// The product's name.
        public var name: String
        /// Where it was looked for.
        public var path: String
        public var description: String {
            "\(name) is not built at \(path): run `make test`, or `swift build --build-tests` (it builds every product) first"
        }
    }

    /// The checkout's root (the folder holding `Package.swift`).
    public static let checkout: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The folder holding the running test bundle (`.build/<triple>/debug`).
    public static var directory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The path of the built executable `name` (e.g. `shakyd`); throws ``Missing`` when it is not there.
    public static func path(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(name: name, path: path) }
        return path
    }
}

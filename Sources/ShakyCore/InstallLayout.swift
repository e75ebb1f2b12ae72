import Foundation

/// Where Shaky Words finds the data it ships (sounds, built-in quiz packs).
///
/// An installed daemon finds its data under its install prefix (`PREFIX/share/shaky/…` beside
/// `PREFIX/bin/shakyd`); a developer's `swift run` or `swift test` finds it in the checkout.
/// `SHAKY_DATA_DIR` overrides both.
public enum InstallLayout {
    /// A kind of shipped data, with its place in an install tree and in the checkout.
    public struct DataSet: Sendable {
        /// Path below `PREFIX/share/shaky` (or below `SHAKY_DATA_DIR`).
        public var installedPath: String
        /// Path below the checkout's root (the folder holding `Package.swift`).
        public var checkoutPath: String

        /// Creates a data set description.
        public init(installedPath: String, checkoutPath: String) {
            self.installedPath = installedPath
            self.checkoutPath = checkoutPath
        }

        /// The sound cues: `share/shaky/sounds`, `sounds/` in the checkout.
        public static let sounds = DataSet(installedPath: "sounds", checkoutPath: "sounds")
        /// The built-in quiz packs: `share/shaky/packs`, `Sources/ShakyStore/BuiltinPacks` in the checkout.
        public static let builtinPacks = DataSet(
            installedPath: "packs", checkoutPath: "Sources/ShakyStore/BuiltinPacks")
        /// The demo trace (`--input demo`): `share/shaky/traces`, `Sources/ShakyDaemon/Demo` in the checkout.
        public static let demoTraces = DataSet(installedPath: "traces", checkoutPath: "Sources/ShakyDaemon/Demo")
    }

    /// The candidate folders for `dataSet`, most specific first. Only existing folders are returned.
    ///
    /// - Parameters:
    ///   - environment: the process environment (for `SHAKY_DATA_DIR`).
    ///   - executable: the running program's path, from which the install prefix or checkout is found.
    public static func directories(
        for dataSet: DataSet,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    ) -> [URL] {
        var candidates: [URL] = []
        if let override = environment["SHAKY_DATA_DIR"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override).appendingPathComponent(dataSet.installedPath))
        }
        let binDirectory = executable.deletingLastPathComponent()
        candidates.append(
            binDirectory.deletingLastPathComponent().appendingPathComponent("share/shaky")
                .appendingPathComponent(dataSet.installedPath))
        if let root = checkoutRoot(above: binDirectory) {
            candidates.append(root.appendingPathComponent(dataSet.checkoutPath))
        }
        return candidates.filter { isDirectory($0) }
    }

    /// The first existing folder for `dataSet`, if any.
    public static func directory(
        for dataSet: DataSet,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        directories(for: dataSet, environment: environment).first
    }

    /// The nearest folder at or above `start` that holds a `Package.swift`: the checkout's root.
    public static func checkoutRoot(above start: URL) -> URL? {
        var folder = start.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

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
        /// Path below the checkout's root.
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
    /// In order: `SHAKY_DATA_DIR`; the install prefix of the running program (`PREFIX/share/shaky` beside
    /// `PREFIX/bin`, found from the real executable, `/proc/self/exe`, so a daemon started from `$PATH`
    /// in any folder finds its data); and, for a program run from the build folder of the checkout it was
    /// built from, that checkout.
    ///
    /// - Parameters:
    ///   - environment: the process environment (for `SHAKY_DATA_DIR`).
    ///   - executable: the running program's real path.
    public static func directories(
        for dataSet: DataSet,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = runningExecutable
    ) -> [URL] {
        places(for: dataSet, environment: environment, executable: executable).filter { isDirectory($0) }
    }

    /// Every folder ``directories(for:environment:executable:)`` looks in for `dataSet`, whether it exists or not:
    /// what a message that it was not found names.
    public static func places(
        for dataSet: DataSet,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = runningExecutable
    ) -> [URL] {
        var candidates: [URL] = []
        if let override = environment["SHAKY_DATA_DIR"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override).appendingPathComponent(dataSet.installedPath))
        }
        let binDirectory = executable.deletingLastPathComponent()
        candidates.append(
            binDirectory.deletingLastPathComponent().appendingPathComponent("share/shaky")
                .appendingPathComponent(dataSet.installedPath))
        let checkout = sourceCheckout
        if executable.standardizedFileURL.path.hasPrefix(checkout.appendingPathComponent(".build").path + "/") {
            candidates.append(checkout.appendingPathComponent(dataSet.checkoutPath))
        }
        return candidates
    }

    /// The first existing folder for `dataSet`, if any.
    public static func directory(
        for dataSet: DataSet,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        directories(for: dataSet, environment: environment).first
    }

    /// The running program's real path: `/proc/self/exe` resolved, else `argv[0]` resolved.
    public static var runningExecutable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    }

    /// The checkout this program was built from (fixed at build time); used only for programs that run
    /// from that checkout's `.build` folder.
    public static let sourceCheckout: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ShakyCore
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

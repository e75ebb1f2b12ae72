import Foundation

/// The PyPI `varlink` package in the repository's `.venv` (made by `make setup`): an independent Varlink client,
/// its command line (`python -m varlink.cli`) and its library.
public enum PythonVarlink {
    /// What a finished run printed and how it ended.
    public struct Output: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// The venv or its python is missing.
    public struct Missing: Error, CustomStringConvertible {
        /// Where python was looked for.
        public var path: String
        public var description: String { "the python varlink client is missing at \(path): run `make setup`" }
    }

    /// How long a run may take before it is killed and the test fails.
    public static let timeout: Duration = .seconds(60)

    /// The venv's python; throws ``Missing`` when it (or its `varlink` package) is not there.
    public static func python() throws -> String {
        let python = BuiltProduct.checkout.appendingPathComponent(".venv/bin/python").path
        let package = BuiltProduct.checkout.appendingPathComponent(".venv/lib").path
        guard FileManager.default.isExecutableFile(atPath: python),
            let versions = try? FileManager.default.contentsOfDirectory(atPath: package),
            versions.contains(where: {
                FileManager.default.fileExists(atPath: "\(package)/\($0)/site-packages/varlink/__init__.py")
            })
        else { throw Missing(path: python) }
        return python
    }

    /// Starts `python arguments…` unbuffered, for a test that reads its output while it runs.
    public static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(try python(), arguments, environment: ["PYTHONUNBUFFERED": "1"])
    }

    /// Runs `python arguments…` to its end (killed after ``timeout``, which fails the test).
    public static func run(_ arguments: [String]) async throws -> Output {
        let child = try start(arguments)
        let exit = try await child.waitForExit(within: timeout)
        return Output(
            status: exit.signaled ? 128 + exit.status : exit.status, stdout: child.standardOutput,
            stderr: child.standardError)
    }

    /// Runs `python -m varlink.cli arguments…`.
    public static func cli(_ arguments: [String]) async throws -> Output {
        try await run(["-m", "varlink.cli"] + arguments)
    }
}

import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the PyPI `varlink` package from the repository's `.venv`, the independent client.
enum PythonVarlink {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Seconds before a hung client is killed and the test fails.
    static let timeoutSeconds = 60

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The venv's python; records an issue (the test fails) when it is missing.
    static func python() throws -> String {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "the python varlink client is missing at \(python): run `make setup`")
        return python
    }

    /// Runs `python arguments…` under `timeout`, without blocking the test's task.
    static func run(_ arguments: [String]) async throws -> Output {
        let python = try python()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", "\(timeoutSeconds)", python] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = await withCheckedContinuation { continuation in
            Thread {
                let group = DispatchGroup()
                nonisolated(unsafe) var out: [UInt8] = []
                group.enter()
                Thread {
                    out = readAll(stdout.fileHandleForReading.fileDescriptor)
                    group.leave()
                }.start()
                let err = readAll(stderr.fileHandleForReading.fileDescriptor)
                group.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Output(
                        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                        stderr: String(decoding: err, as: UTF8.self)))
            }.start()
        }
        #expect(output.status != 124, "python \(arguments) timed out after \(timeoutSeconds) s")
        return output
    }

    /// Reads a descriptor to its end, retrying reads a signal interrupts.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    /// Runs `python -m varlink.cli arguments…`.
    static func cli(_ arguments: [String]) async throws -> Output {
        try await run(["-m", "varlink.cli"] + arguments)
    }
}

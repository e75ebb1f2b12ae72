import Foundation

/// The package's built executables and its checkout, as tests find them.
public enum BuiltProducts {
    /// The checkout's root (the folder holding `Package.swift`).
    public static let checkout: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The folder of the running test binary: the build's products folder (`.build/debug`).
    public static let binPath: URL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// A built executable beside the test binary.
    ///
    /// - Throws: ``MissingProduct`` naming the path and the command that builds it.
    public static func executable(_ name: String) throws -> String {
        let path = binPath.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingProduct(path: path)
        }
        return path
    }

    /// A product the test needs was not built.
    public struct MissingProduct: Error, CustomStringConvertible {
        /// Where it was looked for.
        public var path: String
        public var description: String {
            "\(path) is not built: run `swift build --build-tests` (and `swift build --product generate-manual`) first, or `make test`"
        }
    }
}

/// A finished subprocess: its exit status and what it printed.
public struct ProcessOutput: Sendable {
    /// The exit status (or the signal number for a signalled process).
    public var status: Int32
    /// Standard output.
    public var standardOutput: String
    /// Standard error.
    public var standardError: String
}

/// Runs `executable` with `arguments` to completion, with a deadline after which it is killed and an error thrown.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    currentDirectory: URL? = nil, timeout: Duration = .seconds(120)
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let collected = ProcessCollector()
    let readers = DispatchGroup()
    for (pipe, isError) in [(output, false), (error, true)] {
        readers.enter()
        DispatchQueue.global().async {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            collected.store(data, isError: isError)
            readers.leave()
        }
    }
    let seconds = Double(timeout.components.seconds)
    if readers.wait(timeout: .now() + seconds) == .timedOut {
        process.terminate()
        throw ProcessTimeout(command: ([executable] + arguments).joined(separator: " "), timeout: timeout)
    }
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus, standardOutput: collected.output, standardError: collected.error)
}

/// A subprocess ran past its deadline and was stopped.
public struct ProcessTimeout: Error, CustomStringConvertible {
    /// The command line.
    public var command: String
    /// The deadline it missed.
    public var timeout: Duration
    public var description: String { "`\(command)` did not finish within \(timeout)" }
}

private final class ProcessCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData = Data()
    private var errorData = Data()

    func store(_ data: Data, isError: Bool) {
        lock.withLock {
            if isError { errorData = data } else { outputData = data }
        }
    }

    var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
    var error: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }
}

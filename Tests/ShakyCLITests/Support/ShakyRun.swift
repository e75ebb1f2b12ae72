import Foundation
import Synchronization
import Testing

@testable import ShakyCLI

/// A console that keeps what a command printed.
final class RecordingConsole: Console {
    let isTerminal: Bool
    private let text = Mutex((output: "", error: ""))

    init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    var output: String { text.withLock { $0.output } }
    var error: String { text.withLock { $0.error } }

    func write(_ text: String) {
        self.text.withLock { $0.output += text }
    }

    func writeError(_ text: String) {
        self.text.withLock { $0.error += text }
    }
}

/// What a run of `shaky` left: its exit status and what it printed.
struct ShakyOutcome: Sendable, CustomStringConvertible {
    var status: Int32
    var output: String
    var error: String

    var description: String { "exit \(status)\n--- stdout\n\(output)--- stderr\n\(error)" }
}

/// Runs `shaky ARGUMENTS` in-process, the way `main.swift` does, and records what it printed.
func runInProcess(_ arguments: [String]) async -> ShakyOutcome {
    let console = RecordingConsole()
    let status = await CurrentConsole.$value.withValue(console) { await Shaky.execute(arguments) }
    return ShakyOutcome(status: status, output: console.output, error: console.error)
}

/// The built `shaky` executable, or a failure that says how to build it.
func builtShaky() throws -> String {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
        testBinary.deletingLastPathComponent().appendingPathComponent("shaky").path,
        checkout.appendingPathComponent(".build/debug/shaky").path,
    ]
    guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
        throw TestSetupError(
            "the shaky executable is not built (looked at \(candidates.joined(separator: ", "))): "
                + "run `swift build --build-tests` (or `swift build --product shaky`) before `swift test --skip-build`")
    }
    return found
}

/// Runs the built `shaky ARGUMENTS` with `input` on standard input; fails after `timeout` seconds.
///
/// Waits without blocking a thread, so an in-process fake daemon keeps answering meanwhile.
func runBinary(
    _ arguments: [String], input: String = "", environment: [String: String] = [:], timeout: Double = 30
) async throws -> ShakyOutcome {
    let executable = try builtShaky()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-cli-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let paths = ["stdin", "stdout", "stderr"].map { directory.appendingPathComponent($0) }
    try Data(input.utf8).write(to: paths[0])
    for url in paths.dropFirst() { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var processEnvironment = ProcessInfo.processInfo.environment
    processEnvironment["SHAKY_SOCKET"] = nil
    processEnvironment.merge(environment) { _, new in new }
    process.environment = processEnvironment
    process.standardInput = try FileHandle(forReadingFrom: paths[0])
    process.standardOutput = try FileHandle(forWritingTo: paths[1])
    process.standardError = try FileHandle(forWritingTo: paths[2])
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    let timer = Task {
        try await Task.sleep(for: .seconds(timeout))
        process.terminate()
    }
    for await _ in finished.stream {}
    timer.cancel()
    let outcome = ShakyOutcome(
        status: process.terminationStatus,
        output: (try? String(contentsOf: paths[1], encoding: .utf8)) ?? "",
        error: (try? String(contentsOf: paths[2], encoding: .utf8)) ?? "")
    if process.terminationReason == .uncaughtSignal {
        throw TestSetupError("shaky \(arguments.joined(separator: " ")) was killed after \(timeout) s\n\(outcome)")
    }
    return outcome
}

/// A problem with the test's surroundings, with what to do about it.
struct TestSetupError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

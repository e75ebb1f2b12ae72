import Foundation
import ShakyTesting
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

/// Runs the built `shaky ARGUMENTS` with `input` on standard input; fails after `timeout` seconds.
///
/// Waits without blocking a thread, so an in-process fake daemon keeps answering meanwhile.
func runBinary(
    _ arguments: [String], input: String = "", environment: [String: String] = [:], timeout: Double = 30
) async throws -> ShakyOutcome {
    var changes: [String: String?] = ["SHAKY_SOCKET": nil]
    for (name, value) in environment { changes[name] = value }
    let child = try ChildProcess(
        try BuiltProduct.path("shaky"), arguments, environment: changes, standardInput: Data(input.utf8))
    let exit: ChildProcess.Exit
    do {
        exit = try await child.waitForExit(within: .milliseconds(Int64(timeout * 1000)))
    } catch {
        throw TestSetupError("shaky \(arguments.joined(separator: " ")) was killed after \(timeout) s\n\(error)")
    }
    let outcome = ShakyOutcome(status: exit.status, output: child.standardOutput, error: child.standardError)
    if exit.signaled {
        throw TestSetupError("shaky \(arguments.joined(separator: " ")) was \(exit)\n\(outcome)")
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

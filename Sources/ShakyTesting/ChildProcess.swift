import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A program run by a test: its output collected as it comes (or appended to a log file), and every wait bounded by
/// a deadline. The one way tests run a program; ``DaemonProcess`` runs `shakyd` with it.
///
/// Standard output and error are read on threads of their own, so a chatty child never blocks on a full pipe
/// and the test's tasks never block on a read.
public final class ChildProcess: Sendable {
    /// A wait ran past its deadline; the message says what was awaited and what the child had printed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// What was awaited.
        public var awaited: String
        /// The child's output so far.
        public var standardOutput: String
        /// The child's error output so far.
        public var standardError: String

        /// Creates the error.
        public init(awaited: String, standardOutput: String, standardError: String) {
            self.awaited = awaited
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        public var description: String {
            "timed out waiting for \(awaited)\n--- stdout:\n\(standardOutput)\n--- stderr:\n\(standardError)"
        }
    }

    /// How a child ended.
    public struct Exit: Equatable, Sendable, CustomStringConvertible {
        /// The exit status, or the signal number when ``signaled``.
        public var status: Int32
        /// Whether a signal ended it.
        public var signaled: Bool

        /// Creates an exit.
        public init(status: Int32, signaled: Bool) {
            self.status = status
            self.signaled = signaled
        }

        public var description: String { signaled ? "killed by signal \(status)" : "exit status \(status)" }

        /// The child exited with `status`.
        public static func exited(_ status: Int32) -> Exit { Exit(status: status, signaled: false) }

        /// A signal ended the child.
        public static func signalled(_ signal: Int32) -> Exit { Exit(status: signal, signaled: true) }
    }

    private struct State {
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
        var openPipes = 2
        var exit: Exit?
    }

    /// The state, shared with the reader threads and the termination handler.
    private final class SharedState: Sendable {
        let lock = Mutex(State())
    }

    /// The child's process id.
    public let processID: pid_t
    /// The program's path and arguments, for messages.
    public let commandLine: String
    private let shared: SharedState
    private let process: Process

    /// The program could not be started; `description` says why.
    public struct CannotStart: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: changes to this process's environment: a value sets the variable, `nil` removes it.
    ///   - currentDirectory: where the child starts; this process's own by default.
    ///   - standardInput: what the child reads on standard input; nothing (`/dev/null`) by default.
    ///   - logPath: when given, standard output and error are appended to this file instead of being collected
    ///     (``standardOutput`` and ``standardError`` then stay empty).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        currentDirectory: URL? = nil, standardInput: Data? = nil, appendingOutputTo logPath: String? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        // Input comes from a file rather than a pipe: a child that exits unread cannot raise SIGPIPE in the tests.
        var inputFile: String?
        var input: FileHandle?
        if let standardInput {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)").path
            guard FileManager.default.createFile(atPath: path, contents: standardInput),
                let handle = FileHandle(forReadingAtPath: path)
            else { throw CannotStart(description: "cannot write the standard input of \(executable) to \(path)") }
            inputFile = path
            input = handle
            process.standardInput = handle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        defer { if let inputFile { try? FileManager.default.removeItem(atPath: inputFile) } }
        var pipes: (output: Pipe, errors: Pipe)?
        var log: FileHandle?
        if let logPath {
            guard let handle = FileHandle(forWritingAtPath: logPath) else {
                throw CannotStart(description: "cannot open the log file \(logPath)")
            }
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
            log = handle
        } else {
            let collected = (output: Pipe(), errors: Pipe())
            process.standardOutput = collected.output
            process.standardError = collected.errors
            pipes = collected
        }
        let shared = SharedState()
        if pipes == nil { shared.lock.withLock { $0.openPipes = 0 } }
        process.terminationHandler = { process in
            let exit = Exit(
                status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal)
            shared.lock.withLock { $0.exit = exit }
        }
        do {
            try process.run()
        } catch {
            throw CannotStart(description: "cannot run \(executable): \(error)")
        }
        try? log?.close()
        try? input?.close()
        self.process = process
        self.shared = shared
        processID = process.processIdentifier
        commandLine = ([executable] + arguments).joined(separator: " ")
        if let pipes {
            Self.drain(pipes.output.fileHandleForReading.fileDescriptor, into: shared, errors: false)
            Self.drain(pipes.errors.fileHandleForReading.fileDescriptor, into: shared, errors: true)
        }
    }

    deinit {
        if shared.lock.withLock({ $0.exit == nil }) { Glibc.kill(processID, SIGKILL) }
    }

    /// What the child printed on standard output so far.
    public var standardOutput: String { shared.lock.withLock { String(decoding: $0.standardOutput, as: UTF8.self) } }

    /// What the child printed on standard error so far.
    public var standardError: String { shared.lock.withLock { String(decoding: $0.standardError, as: UTF8.self) } }

    /// How the child ended, once it has.
    public var exit: Exit? { shared.lock.withLock { $0.exit } }

    /// Sends `signal` to the child (if it still runs).
    public func send(_ signal: Int32) {
        if exit == nil { Glibc.kill(processID, signal) }
    }

    /// Waits until standard output contains `text`.
    public func waitForOutput(containing text: String, within timeout: Duration = .seconds(20)) async throws {
        try await wait(for: "“\(text)” on the standard output of \(commandLine)", within: timeout) {
            self.standardOutput.contains(text)
        }
    }

    /// Waits until the child has exited and its output is read to the end; kills it after `timeout`.
    @discardableResult
    public func waitForExit(within timeout: Duration = .seconds(60)) async throws -> Exit {
        do {
            try await wait(for: "\(commandLine) to exit", within: timeout) {
                self.shared.lock.withLock { $0.exit != nil && $0.openPipes == 0 }
            }
        } catch {
            send(SIGKILL)
            throw error
        }
        return exit!
    }

    /// Polls `condition` every few milliseconds until it holds; throws ``TimedOut`` after `timeout`.
    public func wait(
        for awaited: String, within timeout: Duration, until condition: @Sendable () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw TimedOut(awaited: awaited, standardOutput: standardOutput, standardError: standardError)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func drain(_ descriptor: Int32, into shared: SharedState, errors: Bool) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let chunk = buffer[..<count]
                    shared.lock.withLock {
                        if errors { $0.standardError += chunk } else { $0.standardOutput += chunk }
                    }
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            shared.lock.withLock { $0.openPipes -= 1 }
        }.start()
    }
}

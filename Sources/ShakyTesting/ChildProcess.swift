import CSpawn
import Foundation
import Synchronization
import Varlink

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

    /// The state, shared with the reader threads.
    private final class SharedState: Sendable {
        let lock = Mutex(State())
    }

    /// The child's process id.
    public let processID: pid_t
    /// The program's path and arguments, for messages.
    public let commandLine: String
    private let shared: SharedState

    /// The program could not be started; `description` says why.
    public struct CannotStart: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Starts `executable` with `arguments`.
    ///
    /// The child is spawned with `posix_spawn`, in a process group of its own, with no signal blocked and no
    /// descriptor of this process but its standard input, output and error. It is not Foundation's `Process`: that
    /// reaps every child on one shared thread with a blocking `waitpid`, and a child that closes the descriptor it
    /// watches before it exits (`systemd-socket-activate` closes all it did not make) holds that thread, and every
    /// other test's `Process.run()` with it, until the child ends. This one is reaped by whoever asks how it ended.
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
        var descriptorsToClose: [Int32] = []
        defer { for descriptor in descriptorsToClose { close(descriptor) } }
        // Input comes from a file rather than a pipe: a child that exits unread cannot raise SIGPIPE in the tests.
        let input: Int32
        if let standardInput {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            guard FileManager.default.createFile(atPath: path, contents: standardInput) else {
                throw CannotStart(description: "cannot write the standard input of \(executable) to \(path)")
            }
            input = open(path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw CannotStart(description: "cannot open \(path): \(Self.errorText())") }
        } else {
            input = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw CannotStart(description: "cannot open /dev/null: \(Self.errorText())") }
        }
        descriptorsToClose.append(input)
        let output: Int32
        let errors: Int32
        var readEnds: (output: Int32, errors: Int32)?
        if let logPath {
            let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard log >= 0 else {
                throw CannotStart(description: "cannot open the log file \(logPath): \(Self.errorText())")
            }
            descriptorsToClose.append(log)
            (output, errors) = (log, log)
        } else {
            var outputPipe: [Int32] = [-1, -1]
            var errorPipe: [Int32] = [-1, -1]
            guard pipe2(&outputPipe, O_CLOEXEC) == 0 else {
                throw CannotStart(description: "cannot make a pipe: \(Self.errorText())")
            }
            guard pipe2(&errorPipe, O_CLOEXEC) == 0 else {
                let problem = Self.errorText()
                close(outputPipe[0])
                close(outputPipe[1])
                throw CannotStart(description: "cannot make a pipe: \(problem)")
            }
            descriptorsToClose += [outputPipe[1], errorPipe[1]]
            readEnds = (outputPipe[0], errorPipe[0])
            (output, errors) = (outputPipe[1], errorPipe[1])
        }
        let spawned: pid_t
        do {
            spawned = try Self.spawn(
                executable, arguments, environment: environment, currentDirectory: currentDirectory?.path,
                standardStreams: (input, output, errors))
        } catch {
            if let readEnds {
                close(readEnds.output)
                close(readEnds.errors)
            }
            throw error
        }
        let shared = SharedState()
        if readEnds == nil { shared.lock.withLock { $0.openPipes = 0 } }
        self.shared = shared
        processID = spawned
        commandLine = ([executable] + arguments).joined(separator: " ")
        if let readEnds {
            Self.drain(readEnds.output, into: shared, errors: false)
            Self.drain(readEnds.errors, into: shared, errors: true)
        }
    }

    /// Spawns the child with `standardStreams` as its descriptors 0, 1 and 2 and no other, and returns its id.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment changes: [String: String?],
        currentDirectory: String?, standardStreams: (input: Int32, output: Int32, errors: Int32)
    ) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        let argumentStrings = ([executable] + arguments).map { strdup($0) }
        let environmentStrings = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for string in argumentStrings + environmentStrings { free(string) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardStreams.input, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, standardStreams.output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, standardStreams.errors, STDERR_FILENO)
        if let currentDirectory { posix_spawn_file_actions_addchdir_np(&actions, currentDirectory) }
        // Descriptors other threads open meanwhile without O_CLOEXEC stay out of the child too.
        posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        var processID = pid_t()
        let result = posix_spawn(
            &processID, executable, &actions, &attributes, argumentStrings + [nil], environmentStrings + [nil])
        guard result == 0 else {
            throw CannotStart(description: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return processID
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    /// How the child ended, collecting its status once it has; `nil` while it runs.
    private func reap() -> Exit? {
        shared.lock.withLock { state in
            if let exit = state.exit { return exit }
            var status: Int32 = 0
            guard waitpid(processID, &status, WNOHANG) == processID else { return nil }
            let signal = status & 0x7f
            state.exit = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return state.exit
        }
    }

    deinit {
        guard reap() == nil else { return }
        killProcessGroup()
        // Collects the killed child's status, so that it does not stay a zombie for the rest of the run.
        let processID = processID
        Thread {
            var status: Int32 = 0
            while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        }.start()
    }

    /// What the child printed on standard output so far.
    public var standardOutput: String { shared.lock.withLock { String(decoding: $0.standardOutput, as: UTF8.self) } }

    /// What the child printed on standard error so far.
    public var standardError: String { shared.lock.withLock { String(decoding: $0.standardError, as: UTF8.self) } }

    /// How the child ended, once it has.
    public var exit: Exit? { reap() }

    /// Sends `signal` to the child (if it still runs).
    public func send(_ signal: Int32) {
        if exit == nil { Glibc.kill(processID, signal) }
    }

    /// Kills the child and what it started that stayed in its process group (`shakyd` under `umockdev-run`), so that
    /// nothing of a test that timed out lives on. Only while the child is not reaped: until then its id names that
    /// group and no other.
    private func killProcessGroup() {
        shared.lock.withLock { state in
            if state.exit == nil { Glibc.kill(-processID, SIGKILL) }
        }
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
                self.reap() != nil && self.shared.lock.withLock { $0.openPipes == 0 }
            }
        } catch {
            killProcessGroup()
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

    /// Waits until something listens on the Unix socket at `path` (the program's own server, say): a socket file
    /// is there from `bind`, before `listen`, and a client connecting in between is refused.
    public func waitUntilListening(at path: String, within timeout: Duration) async throws {
        try await wait(for: "a server listening at \(path)", within: timeout) {
            UnixSocketFile.probe(path: path) == nil
        }
    }

    /// Reads `descriptor` to its end on a thread of its own, then closes it.
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
            close(descriptor)
            shared.lock.withLock { $0.openPipes -= 1 }
        }.start()
    }
}

import Foundation
import ShakyProtocol
import Synchronization
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The built `shakyd` run as a child process, on a socket and a state folder of its own, for tests that need the
/// real daemon: crashes (`kill -9`), restarts on the same database, load from many connections.
///
/// ```swift
/// let daemon = try DaemonProcess()                  // a fresh temporary folder; nothing runs yet
/// try await daemon.start()                          // runs `shakyd serve …` and waits until the socket answers
/// let client = try await daemon.connect()
/// await daemon.kill()                               // SIGKILL, then reaped
/// try await daemon.start()                          // the same socket and state folder
/// ```
///
/// Every start runs `shakyd serve --socket S --state-dir D --config C --input none --sound-device none` with an
/// empty configuration file `C`, so nothing on the machine leaks in; ``arguments`` are added after these and win.
/// Standard output and error of every start are appended to ``logPath``.
public final class DaemonProcess: Sendable {
    /// The harness could not run the daemon; `description` says why and what to do.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String

        /// Creates a failure.
        public init(_ description: String) { self.description = description }
    }

    /// How a daemon process ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "ended by signal \(signal)"
            }
        }
    }

    /// The `shakyd` executable.
    public let executable: URL
    /// The temporary folder holding the socket, the state folder, the configuration and the log.
    public let folder: URL
    /// The Varlink socket.
    public let socketPath: String
    /// The state folder (`--state-dir`).
    public let stateDirectory: String
    /// Where the daemon's standard output and error go, appended across restarts.
    public let logPath: String
    /// Flags added after the defaults on every start (a repeated flag wins over the default).
    public let arguments: [String]
    /// Variables added to (or replacing) the test process's environment on every start.
    public let environment: [String: String]
    private let running = Mutex<RunningDaemon?>(nil)

    /// The database file in the state folder.
    public var databasePath: String { stateDirectory + "/shaky.sqlite" }

    /// Prepares a daemon in a fresh temporary folder; nothing runs until ``start(readyWithin:)``.
    ///
    /// - Parameters:
    ///   - arguments: extra `shakyd serve` flags, such as `["--input", "trace:/tmp/t.csv"]`.
    ///   - environment: extra environment variables, such as `ALSA_CONFIG_PATH`.
    ///   - executable: the `shakyd` to run; by default the one built next to the test bundle (see
    ///     ``locateExecutable()``).
    /// - Throws: ``Failure`` when `shakyd` is not built or the folder cannot be made.
    public init(arguments: [String] = [], environment: [String: String] = [:], executable: URL? = nil) throws {
        self.executable = try executable ?? Self.locateExecutable()
        self.arguments = arguments
        self.environment = environment
        folder = try Self.makeTemporaryFolder()
        socketPath = folder.appendingPathComponent("shaky.sock").path
        stateDirectory = folder.appendingPathComponent("state").path
        logPath = folder.appendingPathComponent("shakyd.log").path
        let configuration = folder.appendingPathComponent("shakyd.conf").path
        guard
            FileManager.default.createFile(atPath: configuration, contents: Data("# empty\n".utf8)),
            FileManager.default.createFile(atPath: logPath, contents: Data())
        else { throw Failure("cannot write the configuration and log files in \(folder.path)") }
    }

    deinit {
        if let daemon = running.withLock({ $0 }) { daemon.signal(SIGKILL) }
    }

    /// Finds the built `shakyd`: `$SHAKYD_PATH` if set, else the `shakyd` in the folder of the running executable
    /// (the test bundle or a tool in `.build/<configuration>/`).
    ///
    /// - Throws: ``Failure`` naming the path looked at and the build command when it is not there.
    public static func locateExecutable() throws(Failure) -> URL {
        if let path = ProcessInfo.processInfo.environment["SHAKYD_PATH"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw Failure("SHAKYD_PATH is \(path), which is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = running.deletingLastPathComponent().appendingPathComponent("shakyd")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw Failure(
                "the built shakyd is missing at \(candidate.path): run `swift build --build-tests` "
                    + "(it builds shakyd next to the tests), or set SHAKYD_PATH")
        }
        return candidate
    }

    private static func makeTemporaryFolder() throws(Failure) -> URL {
        // A Unix socket path must fit in 108 bytes, so stay short even when TMPDIR is long.
        var template = Array("/tmp/shakyd-process-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) != nil }) else {
            throw Failure("cannot make a temporary folder in /tmp: \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: Running

    /// The running daemon's process id, if one runs.
    public var processID: pid_t? {
        running.withLock { $0?.processID }
    }

    /// Starts `shakyd` and returns once its socket answers `org.varlink.service.GetInfo`.
    ///
    /// - Throws: ``Failure`` when a daemon already runs, when it exits before answering (with its log), or when it
    ///   does not answer within `readyWithin` (it is then killed).
    public func start(readyWithin: Duration = .seconds(30)) async throws {
        guard processID == nil else { throw Failure("shakyd already runs (pid \(processID!))") }
        let logStart = (try? FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
        let daemon = try RunningDaemon.launch(
            executable: executable, arguments: commandLine, environment: childEnvironment, logPath: logPath)
        running.withLock { $0 = daemon }
        let clock = ContinuousClock()
        let deadline = clock.now + readyWithin
        while true {
            if let termination = daemon.termination {
                running.withLock { $0 = nil }
                throw Failure("shakyd \(termination) before its socket answered; its log:\n\(log(from: logStart))")
            }
            if let client = try? await VarlinkClient.connect(unixSocketPath: socketPath) {
                let answered = (try? await client.call("org.varlink.service.GetInfo")) != nil
                await client.close()
                if answered { return }
            }
            guard clock.now < deadline else {
                await kill()
                throw Failure(
                    "shakyd did not answer on \(socketPath) within \(readyWithin); its log:\n\(log(from: logStart))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A new client connection to the daemon's socket.
    ///
    /// A Unix socket refuses connections at once (`EAGAIN`) while its listen backlog is full, as when a test opens
    /// hundreds of connections faster than a busy daemon accepts them; so a refused connection is tried again for up
    /// to `retryFor` while the daemon runs.
    public func connect(retryFor patience: Duration = .seconds(5)) async throws -> VarlinkClient {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            do {
                return try await VarlinkClient.connect(unixSocketPath: socketPath)
            } catch {
                guard processID != nil, clock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Kills the daemon with SIGKILL (no chance to save anything) and waits until it is reaped.
    ///
    /// Does nothing when no daemon runs.
    @discardableResult
    public func kill() async -> Termination? {
        await stop(with: SIGKILL)
    }

    /// Asks the daemon to stop with SIGTERM (it saves the game) and waits until it has exited.
    @discardableResult
    public func terminate() async -> Termination? {
        await stop(with: SIGTERM)
    }

    private func stop(with signal: Int32) async -> Termination? {
        guard let daemon = running.withLock({ $0 }) else { return nil }
        daemon.signal(signal)
        let termination = await daemon.waitForExit()
        running.withLock { $0 = nil }
        return termination
    }

    /// What the daemon wrote to standard output and error so far, across all starts.
    public func log() -> String {
        log(from: 0)
    }

    private func log(from offset: Int) -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "" }
        return String(decoding: data.dropFirst(offset), as: UTF8.self)
    }

    /// The running daemon's resident memory (`VmRSS` in `/proc/PID/status`), in KiB.
    public func residentMemoryKiB() throws -> Int {
        guard let pid = processID else { throw Failure("shakyd does not run") }
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.dropFirst("VmRSS:".count).filter(\.isNumber)
            if let value = Int(number) { return value }
        }
        throw Failure("no VmRSS line in /proc/\(pid)/status")
    }

    /// Kills a running daemon and removes the temporary folder with everything in it.
    public func removeFiles() async {
        await kill()
        try? FileManager.default.removeItem(at: folder)
    }

    private var commandLine: [String] {
        [
            "serve", "--socket", socketPath, "--state-dir", stateDirectory,
            "--config", folder.appendingPathComponent("shakyd.conf").path,
            "--input", "none", "--sound-device", "none", "--buzzers", "none",
        ] + arguments
    }

    private var childEnvironment: [String: String] {
        var variables = ProcessInfo.processInfo.environment
        // Not started by systemd: no inherited sockets, readiness or watchdog, and logs as on a terminal.
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM"] {
            variables.removeValue(forKey: name)
        }
        variables.merge(environment) { _, new in new }
        return variables
    }
}

/// One launched `shakyd` process and how it ended, once it has.
private final class RunningDaemon: @unchecked Sendable {
    private let process: Process
    private struct Exit {
        var termination: DaemonProcess.Termination?
        var waiters: [CheckedContinuation<DaemonProcess.Termination, Never>] = []
    }
    private let exit = Mutex(Exit())

    private init(process: Process) {
        self.process = process
    }

    var processID: pid_t { process.processIdentifier }

    var termination: DaemonProcess.Termination? { exit.withLock { $0.termination } }

    static func launch(
        executable: URL, arguments: [String], environment: [String: String], logPath: String
    ) throws -> RunningDaemon {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        guard let log = FileHandle(forWritingAtPath: logPath) else {
            throw DaemonProcess.Failure("cannot open the log file \(logPath)")
        }
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let daemon = RunningDaemon(process: process)
        process.terminationHandler = { process in
            let termination: DaemonProcess.Termination =
                process.terminationReason == .uncaughtSignal
                ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
            let waiters = daemon.exit.withLock { exit in
                exit.termination = termination
                defer { exit.waiters = [] }
                return exit.waiters
            }
            for waiter in waiters { waiter.resume(returning: termination) }
        }
        do {
            try process.run()
        } catch {
            throw DaemonProcess.Failure("cannot run \(executable.path): \(error)")
        }
        try? log.close()
        return daemon
    }

    func signal(_ signal: Int32) {
        guard termination == nil else { return }
        _ = Glibc.kill(process.processIdentifier, signal)
    }

    func waitForExit() async -> DaemonProcess.Termination {
        await withCheckedContinuation { continuation in
            let ended = exit.withLock { exit -> DaemonProcess.Termination? in
                if let termination = exit.termination { return termination }
                exit.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }
}

extension DaemonProcess {
    /// The generated typed client of `io.shakywords.Game` over one connection to a daemon.
    public typealias GameClient = ShakyAPI.GameInterface.Client<VarlinkClient>

    /// A `Game.Watch` stream read in the background, so a test can wait for the next event it cares about with a
    /// deadline instead of sleeping.
    public final class EventWatch: Sendable {
        private let inbox = Inbox()
        private let pump: Task<Void, Never>

        /// Starts reading `events`.
        public init(_ events: AsyncThrowingStream<ShakyAPI.GameInterface.WatchReply, any Error>) {
            let inbox = inbox
            pump = Task {
                do {
                    for try await reply in events { inbox.deliver(reply.event) }
                    inbox.end(nil)
                } catch {
                    inbox.end(error)
                }
            }
        }

        deinit {
            pump.cancel()
        }

        /// Stops reading (closing the watch's connection).
        public func cancel() {
            pump.cancel()
        }

        /// Waits for the next event (not returned before) that satisfies `predicate`, for at most `timeout`.
        ///
        /// Events before it are passed over. Returns `nil` on timeout; throws when the stream failed before one came.
        public func next(
            within timeout: Duration, where predicate: @escaping @Sendable (ShakyAPI.Event) -> Bool = { _ in true }
        ) async throws -> ShakyAPI.Event? {
            let inbox = inbox
            let id = inbox.newWaiterID()
            let timer = Task {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return  // the event came first
                }
                inbox.timeOut(id)
            }
            defer { timer.cancel() }
            return try await withCheckedThrowingContinuation { continuation in
                inbox.wait(id: id, for: predicate, continuation: continuation)
            }
        }
    }
}

/// The events an ``DaemonProcess/EventWatch`` has read and not yet handed out, and who waits for one.
private final class Inbox: Sendable {
    private struct Waiter {
        var id: Int
        var predicate: @Sendable (ShakyAPI.Event) -> Bool
        var continuation: CheckedContinuation<ShakyAPI.Event?, any Error>
    }
    private struct State {
        var buffered: [ShakyAPI.Event] = []
        var isEnded = false
        var failure: (any Error)?
        var waiter: Waiter?
        var nextWaiterID = 0
        var timedOut: Set<Int> = []
    }
    private let state = Mutex(State())

    func newWaiterID() -> Int {
        state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
    }

    /// Resumes `continuation` with the first buffered or coming event that satisfies `predicate`.
    func wait(
        id: Int, for predicate: @escaping @Sendable (ShakyAPI.Event) -> Bool,
        continuation: CheckedContinuation<ShakyAPI.Event?, any Error>
    ) {
        let outcome = state.withLock { state -> Result<ShakyAPI.Event?, any Error>? in
            while !state.buffered.isEmpty {
                let event = state.buffered.removeFirst()
                if predicate(event) { return .success(event) }
            }
            if state.timedOut.remove(id) != nil { return .success(nil) }
            if state.isEnded { return state.failure.map { .failure($0) } ?? .success(nil) }
            state.waiter = Waiter(id: id, predicate: predicate, continuation: continuation)
            return nil
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    func deliver(_ event: ShakyAPI.Event) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.buffered.append(event)
                return nil
            }
            guard waiter.predicate(event) else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: event)
    }

    func end(_ failure: (any Error)?) {
        let waiter = state.withLock { state -> Waiter? in
            state.isEnded = true
            state.failure = failure
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let failure {
            waiter.continuation.resume(throwing: failure)
        } else {
            waiter.continuation.resume(returning: nil)
        }
    }

    func timeOut(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter, waiter.id == id else {
                state.timedOut.insert(id)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }
}

extension ShakyAPI.GameInterface.Client where Transport == VarlinkClient {
    /// Creates a pack holding `questions` (`Packs.Create`, then `Packs.AddQuestion` for each).
    public func createPack(_ name: String, questions: [ShakyAPI.Question]) async throws {
        let packs = ShakyAPI.PacksInterface.Client(transport)
        _ = try await packs.create(name: name)
        for question in questions {
            _ = try await packs.addQuestion(pack: name, question: question)
        }
    }

    /// `Watch` read in the background: the current state, then every event.
    ///
    /// Watch on a connection of its own: a stream holds its connection until it ends.
    public func watchInBackground() async throws -> DaemonProcess.EventWatch {
        DaemonProcess.EventWatch(try await watch())
    }
}

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
/// A test runs its daemon in ``withRunning(arguments:environment:_:)`` (or, when it starts the daemon itself, in
/// ``withCleanup(throughWrapper:_:)``), which stops it and removes its folder before the test ends.
///
/// Every start runs `shakyd serve --socket S --state-dir D --config C --input none --sound-device none --buzzers none`
/// with an empty configuration file `C`, so nothing on the machine leaks in; ``arguments`` are added after these and
/// win. Standard output and error of every start are appended to ``logPath``.
public final class DaemonProcess: Sendable {
    /// The harness could not run the daemon; `description` says why and what to do.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String

        /// Creates a failure.
        public init(_ description: String) { self.description = description }
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
    private let running = Mutex<ChildProcess?>(nil)

    /// The database file in the state folder.
    public var databasePath: String { stateDirectory + "/shaky.sqlite" }

    /// Prepares a daemon in a fresh temporary folder; nothing runs until ``start(readyWithin:)``.
    ///
    /// - Parameters:
    ///   - arguments: extra `shakyd serve` flags, such as `["--input", "trace:/tmp/t.csv"]`.
    ///   - environment: extra environment variables, such as `ALSA_CONFIG_PATH`.
    ///   - executable: the `shakyd` to run; by default the one built next to the test bundle
    ///     (``BuiltProduct/path(_:)``).
    /// - Throws: ``Failure`` when `shakyd` is not built or the folder cannot be made.
    public init(arguments: [String] = [], environment: [String: String] = [:], executable: URL? = nil) throws {
        self.executable = try executable ?? URL(fileURLWithPath: BuiltProduct.path("shakyd"))
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
        if let daemon = running.withLock({ $0 }) { daemon.send(SIGKILL) }
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
        let daemon: ChildProcess
        do {
            daemon = try ChildProcess(
                executable.path, commandLine, environment: childEnvironment, appendingOutputTo: logPath)
        } catch {
            throw Failure("\(error)")
        }
        running.withLock { $0 = daemon }
        let clock = ContinuousClock()
        let deadline = clock.now + readyWithin
        while true {
            if let exit = daemon.exit {
                running.withLock { $0 = nil }
                throw Failure("shakyd ended (\(exit)) before its socket answered; its log:\n\(log(from: logStart))")
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
    public func kill() async -> ChildProcess.Exit? {
        await stop(with: SIGKILL)
    }

    /// Asks the daemon to stop with SIGTERM (it saves the game) and waits until it has exited.
    @discardableResult
    public func terminate() async -> ChildProcess.Exit? {
        await stop(with: SIGTERM)
    }

    /// Stops a daemon started through a wrapper that does not pass signals on (`umockdev-run`): SIGTERM to the
    /// wrapper's children (the daemon); the wrapper exits with the daemon's status once it has reaped it.
    ///
    /// Does nothing when no daemon runs.
    @discardableResult
    public func terminateThroughWrapper() async -> ChildProcess.Exit? {
        guard let wrapper = processID else { return nil }
        for child in Self.children(of: wrapper) { Glibc.kill(child, SIGTERM) }
        return await stop(with: nil)
    }

    /// The processes whose parent is `parent`, from /proc.
    public static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let afterName = stat.range(of: ") ", options: .backwards)
            else { return nil }
            let fields = stat[afterName.upperBound...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// Stops the daemon with SIGHUP (its terminal closed) and waits until it is reaped.
    ///
    /// Does nothing when no daemon runs.
    @discardableResult
    public func hangUp() async -> ChildProcess.Exit? {
        await stop(with: SIGHUP)
    }

    /// Sends `signal` (if any) and waits until the daemon has exited.
    private func stop(with signal: Int32?) async -> ChildProcess.Exit? {
        guard let daemon = running.withLock({ $0 }) else { return nil }
        if let signal { daemon.send(signal) }
        // A daemon that ignores SIGTERM for a minute is killed; either way it is reaped before this returns.
        let exit = try? await daemon.waitForExit(within: .seconds(60))
        running.withLock { $0 = nil }
        return exit ?? daemon.exit
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

    /// Starts a daemon with `arguments` (beside the defaults: no input, no sound, no buzzers) and `environment`, runs
    /// `body` with it, then stops it (SIGTERM, then SIGKILL) and removes its folder, whether `body` returned or threw:
    /// the clean-up is awaited, where a `defer` can only start it in a task of its own.
    ///
    /// `body` may stop and start the daemon again (a restart, a `kill -9`); whatever runs when it ends is stopped.
    @discardableResult
    public static func withRunning<Result>(
        arguments: [String] = [], environment: [String: String] = [:], _ body: (DaemonProcess) async throws -> Result
    ) async throws -> Result {
        let daemon = try DaemonProcess(arguments: arguments, environment: environment)
        return try await daemon.withCleanup {
            try await daemon.start()
            return try await body(daemon)
        }
    }

    /// Runs `body`, then stops the daemon if it still runs and removes its folder, whether `body` returned or threw;
    /// for a test that starts the daemon itself (later in the test, after preparing its state folder, or expecting
    /// the start to fail). The clean-up is awaited before this returns, so the test cannot end with its daemon still
    /// running.
    ///
    /// ```swift
    /// let daemon = try DaemonProcess(executable: wrapper)
    /// try await daemon.withCleanup(throughWrapper: true) {
    ///     try prepareTheDatabase(at: daemon.databasePath)
    ///     try await daemon.start()
    ///     …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - throughWrapper: the daemon runs under a wrapper that does not pass signals on (`umockdev-run`): it is
    ///     stopped with ``terminateThroughWrapper()`` rather than ``terminate()``.
    ///   - body: the test; it may start, stop and restart the daemon as it needs.
    @discardableResult
    public func withCleanup<Result>(
        throughWrapper: Bool = false, _ body: () async throws -> Result
    ) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            await stopAndRemoveFiles(throughWrapper: throughWrapper)
            throw error
        }
        await stopAndRemoveFiles(throughWrapper: throughWrapper)
        return result
    }

    private func stopAndRemoveFiles(throughWrapper: Bool) async {
        if throughWrapper {
            await terminateThroughWrapper()
        } else {
            await terminate()
        }
        await removeFiles()
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

    private var childEnvironment: [String: String?] {
        var changes: [String: String?] = [:]
        // Not started by systemd: no inherited sockets, readiness or watchdog, and logs as on a terminal.
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM"] {
            changes[name] = .some(nil)
        }
        for (name, value) in environment { changes[name] = value }
        return changes
    }
}

extension DaemonProcess {
    /// The generated typed client of `io.shakywords.Game` over one connection to a daemon.
    public typealias GameClient = ShakyAPI.GameInterface.Client<VarlinkClient>
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
    public func watchInBackground() async throws -> WatchStream<ShakyAPI.Event> {
        let replies = try await watch()
        let events = AsyncThrowingStream<ShakyAPI.Event, any Error> { continuation in
            let task = Task {
                do {
                    for try await reply in replies { continuation.yield(reply.event) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return await WatchStream.reading(events)
    }
}

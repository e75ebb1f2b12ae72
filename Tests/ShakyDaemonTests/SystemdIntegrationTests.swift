import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// The built `shakyd` as systemd runs it: `Type=notify` with a watchdog, and socket activation.
@Suite("systemd integration of the built shakyd")
struct SystemdIntegrationTests {
    /// A scratch folder with an empty configuration file, so no system-wide file is read.
    struct Scratch {
        let directory: TemporaryDirectory
        var socketPath: String { directory.appending("run/shaky.sock") }
        var statePath: String { directory.appending("state") }
        var configurationPath: String { directory.appending("shakyd.conf") }

        init(_ prefix: String) throws {
            directory = try TemporaryDirectory(prefix: prefix)
            _ = FileManager.default.createFile(atPath: directory.appending("shakyd.conf"), contents: Data())
        }

        var serveArguments: [String] {
            [
                "serve", "--config", configurationPath, "--socket", socketPath, "--state-dir", statePath, "--input",
                "none", "--sound-device", "none",
            ]
        }
    }

    /// Variables a parent systemd or shell might have set that would change how the child starts.
    static let cleanEnvironment: [String: String?] = [
        "NOTIFY_SOCKET": nil, "WATCHDOG_USEC": nil, "WATCHDOG_PID": nil, "LISTEN_FDS": nil, "LISTEN_PID": nil,
        "LISTEN_FDNAMES": nil, "JOURNAL_STREAM": nil, "SHAKY_DATA_DIR": nil,
    ]

    @Test(
        "READY=1 only once the socket answers, WATCHDOG=1 pings, STATUS= lines follow the game, STOPPING=1 on SIGTERM")
    func notifyProtocol() async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let scratch = try Scratch("shakyd-notify")
        defer { scratch.directory.remove() }
        let notifications = try NotifySocket(path: scratch.directory.appending("notify"))
        var environment = Self.cleanEnvironment
        environment["NOTIFY_SOCKET"] = notifications.path
        environment["WATCHDOG_USEC"] = "200000"
        let daemon = try ChildProcess(shakyd, scratch.serveArguments, environment: environment)
        defer { daemon.send(SIGKILL) }
        let reader = NotificationReader(socket: notifications, daemon: daemon)

        // READY=1 comes once, after the socket file exists and answers.
        let beforeReady = try await reader.lines(until: { $0 == "READY=1" }, within: .seconds(30))
        #expect(FileManager.default.fileExists(atPath: scratch.socketPath), "READY=1 before the socket exists")
        let client = try await VarlinkClient.connect(unixSocketPath: scratch.socketPath)
        let info = try await client.call("org.varlink.service.GetInfo")
        #expect(info["product"] == "shakyd")
        #expect(beforeReady.filter { $0 == "READY=1" }.count == 1)
        #expect(!beforeReady.contains("WATCHDOG=1"), "the watchdog is pinged only once the daemon serves")

        // Watchdog pings: WATCHDOG_USEC=200000, so one every 100 ms.
        var pings = 0
        _ = try await reader.lines(
            until: { line in
                if line == "WATCHDOG=1" { pings += 1 }
                return pings >= 3
            }, within: .seconds(3))

        // STATUS= lines say what the game is doing.
        _ = try await client.call(
            "io.shakywords.Game.New", parameters: ["teams": ["Owls", "Foxes"], "questions": 2, "seed": 7])
        _ = try await reader.lines(until: { $0 == "STATUS=ready, Owls 0, Foxes 0" }, within: .seconds(10))
        let opened = try await client.call("io.shakywords.Game.Next")
        _ = try await reader.lines(
            until: { $0 == "STATUS=indication, question 1/2, Owls 0, Foxes 0" }, within: .seconds(10))
        _ = try await client.call("io.shakywords.Game.Buzz", parameters: ["team": "Foxes"])
        await client.close()

        // SIGTERM: STOPPING=1, a clean exit, and the game saved.
        daemon.send(SIGTERM)
        _ = try await reader.lines(until: { $0 == "STOPPING=1" }, within: .seconds(20))
        let exit = try await daemon.waitForExit(within: .seconds(20))
        #expect(exit == ChildProcess.Exit(status: 0, signaled: false), "\(daemon.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch.socketPath), "the socket file is left behind")

        try await TestDaemon.run(.inProcess, stateDirectory: scratch.statePath) { restarted in
            let status = try await restarted.status()
            #expect(status.phase == .indication)
            #expect(status.paused == true)
            #expect(status.questionNumber == 1)
            #expect(status.question == opened["status"]?["question"]?.stringValue)
            #expect(status.buzzes.map(\.team) == ["Foxes"])
            #expect(status.scores == ["Owls": 0, "Foxes": 0])
        }
    }

    @Test("Started by systemd-socket-activate, shakyd serves the socket it was passed")
    func socketActivation() async throws {
        let shakyd = try BuiltProduct.path("shakyd")
        let activator = try #require(
            [
                "/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate",
                "/usr/lib/systemd/systemd-socket-activate",
            ]
            .first { FileManager.default.isExecutableFile(atPath: $0) },
            "systemd-socket-activate is missing: install systemd (make setup)")
        let scratch = try Scratch("shakyd-activate")
        defer { scratch.directory.remove() }
        try FileManager.default.createDirectory(
            atPath: scratch.directory.appending("run"), withIntermediateDirectories: true)
        let activated = try ChildProcess(
            activator, ["-l", scratch.socketPath, "--", shakyd] + scratch.serveArguments,
            environment: Self.cleanEnvironment)
        defer { activated.send(SIGKILL) }
        // The socket file is there from bind(), before listen(): a client then is refused. The activator says when
        // it listens.
        try await activated.wait(for: "the activation socket at \(scratch.socketPath)", within: .seconds(20)) {
            activated.standardError.contains("Listening on \(scratch.socketPath)")
        }

        let client = try await VarlinkClient.connect(unixSocketPath: scratch.socketPath)
        let info = try await client.call("org.varlink.service.GetInfo")
        #expect(info["product"] == "shakyd")
        let created = try await client.call(
            "io.shakywords.Game.New", parameters: ["teams": ["Owls", "Foxes"], "questions": 1, "seed": 3])
        #expect(created["status"]?["phase"] == "ready")
        let status = try await client.call("io.shakywords.Game.Status")
        #expect(status["status"]?["teams"] == [["name": "Owls", "score": 0], ["name": "Foxes", "score": 0]])
        await client.close()
        #expect(activated.standardError.contains("serving the socket systemd passed"), "\(activated.standardError)")

        activated.send(SIGTERM)
        let exit = try await activated.waitForExit(within: .seconds(20))
        #expect(exit == ChildProcess.Exit(status: 0, signaled: false), "\(activated.standardError)")
    }
}

/// Reads sd_notify datagrams line by line, failing with the daemon's output when an awaited line never comes.
final class NotificationReader {
    let socket: NotifySocket
    let daemon: ChildProcess
    private var pending: [String] = []

    init(socket: NotifySocket, daemon: ChildProcess) {
        self.socket = socket
        self.daemon = daemon
    }

    /// The lines received up to and including the first for which `isLast` holds.
    func lines(until isLast: (String) -> Bool, within timeout: Duration) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var seen: [String] = []
        while true {
            while !pending.isEmpty {
                let line = pending.removeFirst()
                seen.append(line)
                if isLast(line) { return seen }
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero, let message = await socket.receive(within: left) else {
                throw ChildProcess.TimedOut(
                    awaited: "a notification (received: \(seen))", standardOutput: daemon.standardOutput,
                    standardError: daemon.standardError)
            }
            pending += message.split(separator: "\n").map(String.init)
        }
    }
}

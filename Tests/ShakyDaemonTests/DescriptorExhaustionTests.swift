import Foundation
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Out of file descriptors, a real `shakyd` (its limit lowered with prlimit) stops accepting for a second at a
/// time instead of spinning on `accept4 → EMFILE`, says so once, and serves the clients that waited as soon as
/// others leave.
@Suite("Descriptor exhaustion", .tags(.heavy))
struct DescriptorExhaustionTests {
    static let getInfo = #"{"method":"org.varlink.service.GetInfo"}"#

    static func answers(_ socket: RawSocket) async throws -> Bool {
        guard await socket.send(getInfo) else { return false }
        guard case .success(let frame) = await socket.readFrame() else { return false }
        return try VarlinkReply(frame: frame).error == nil
    }

    /// The process's user and system CPU time so far, in clock ticks (`/proc/PID/stat`, fields 14 and 15).
    static func cpuTicks(of pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }

    static func openDescriptors(of pid: pid_t) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    @Test("At its descriptor limit shakyd logs once, does not spin, and serves waiting clients when others leave")
    func backsOffAtTheDescriptorLimit() async throws {
        let daemon = try DaemonProcess()
        do {
            try await exhaustDescriptors(of: daemon)
        } catch {
            await daemon.removeFiles()
            throw error
        }
        await daemon.removeFiles()
    }

    private func exhaustDescriptors(of daemon: DaemonProcess) async throws {
        try await daemon.start()
        let pid = try #require(daemon.processID)

        // Room for exactly `room` more connections.
        let room = 8
        let limit = try Self.openDescriptors(of: pid) + room
        let prlimit = try ChildProcess("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(limit):\(limit)"])
        let prlimitExit = try await prlimit.waitForExit(within: .seconds(10))
        try #require(prlimitExit.status == 0, "prlimit: \(prlimit.standardError)")

        var served: [RawSocket] = []
        for _ in 0..<room {
            let socket = try RawSocket(path: daemon.socketPath)
            #expect(try await Self.answers(socket))
            served.append(socket)
        }
        // These connect (the kernel queues them in the backlog) but cannot be accepted.
        var waiting: [RawSocket] = []
        for _ in 0..<3 {
            let socket = try RawSocket(path: daemon.socketPath)
            #expect(await socket.send(Self.getInfo))
            waiting.append(socket)
        }
        // The failure is logged as soon as the daemon tries to accept them.
        let clock = ContinuousClock()
        let patience = clock.now + .seconds(20)
        while !daemon.log().contains("cannot accept connections"), clock.now < patience {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(daemon.log().contains("cannot accept connections"), "no failure logged: \(daemon.log())")

        // A measurement window: spinning on accept would take a whole core, 2 s of CPU; backing off takes almost none.
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        let before = try Self.cpuTicks(of: pid)
        try await Task.sleep(for: .seconds(2))
        let used = try Self.cpuTicks(of: pid) - before
        #expect(
            used * 4 < ticksPerSecond,
            "shakyd used \(used) of \(ticksPerSecond) ticks a second while out of descriptors")

        // Others leave: the waiting clients are accepted and answered.
        for socket in served.prefix(4) { socket.hangUp() }
        for socket in waiting {
            guard case .success(let frame) = await socket.readFrame() else {
                Issue.record("a waiting client was never answered")
                continue
            }
            #expect(try VarlinkReply(frame: frame).error == nil)
        }
        let log = daemon.log()
        #expect(log.components(separatedBy: "cannot accept connections").count == 2, "\(log)")
        #expect(log.contains("out of file descriptors"), "\(log)")
        #expect(log.contains("accepting connections again"), "\(log)")
        // Still serving as usual.
        let fresh = try RawSocket(path: daemon.socketPath)
        #expect(try await Self.answers(fresh))
    }
}

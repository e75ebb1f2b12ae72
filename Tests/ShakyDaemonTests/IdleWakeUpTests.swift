import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// A daemon with nothing to do does not wake: its tasks run on NIO's event loop and its sleeps are the loop's, so
/// libdispatch's monitor of its worker threads, which wakes the process every second once started, never starts.
@Suite("An idle shakyd never wakes")
struct IdleWakeUpTests {
    /// How many times the threads of `pid` have gone to sleep and woken since they started (the kernel's count of
    /// voluntary context switches, summed over `/proc/PID/task`).
    private static func wakeUps(_ pid: pid_t) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return total + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    /// The wake-ups of `pid` during `window`: libdispatch's monitor, when running, wakes once a second, and a
    /// round's countdown too.
    private static func wakeUps(_ pid: pid_t, during window: Duration) async throws -> Int {
        let before = try wakeUps(pid)
        try await Task.sleep(for: window)
        return try wakeUps(pid) - before
    }

    @Test("after calls and a hung-up client, no thread wakes; with a round open, the countdown does")
    func idleDaemonNeverWakes() async throws {
        let daemon = try DaemonProcess(arguments: ["--input", "demo", "--sound-device", "none"])
        defer { Task { await daemon.removeFiles() } }
        try await daemon.start()
        let pid = try #require(daemon.processID)
        // A call that sleeps nothing, a store call on the blocking pool, and a connection whose idle timer is
        // armed and then given back when it hangs up.
        let connection = try await daemon.connect()
        _ = try await ShakyAPI.SensorInterface.Client(connection).status()
        _ = try await ShakyAPI.PacksInterface.Client(connection).list()
        await connection.close()
        // The hang-up is handled at once; what is left of start-up settles.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await Self.wakeUps(pid, during: .milliseconds(2500)) == 0)

        // The control: the same count sees a round's one-second countdown.
        let host = try await daemon.connect()
        let client = ShakyAPI.GameInterface.Client(host)
        _ = try await client.new(teams: ["Owls", "Foxes"])
        _ = try await client.next()
        #expect(try await Self.wakeUps(pid, during: .milliseconds(2500)) >= 2)
        await host.close()
        _ = await daemon.terminate()
    }
}

import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// A daemon with nothing to do does not wake: its tasks run on NIO's event loop and its sleeps are the loop's, so
/// libdispatch's monitor of its worker threads, which wakes the process every second once started, never starts.
@Suite("An idle shakyd never wakes")
struct IdleWakeUpTests {
    /// How many times each thread of `pid` has gone to sleep and woken since it started (the kernel's count of
    /// voluntary context switches in `/proc/PID/task/TID/status`), by thread id.
    private static func wakeUps(_ pid: pid_t) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            // A thread that ends between the listing and the read is left out.
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            counts[task] = line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
        }
        return counts
    }

    /// The wake-ups of `pid`'s threads during `window`: libdispatch's monitor, when running, wakes once a second,
    /// and a round's countdown too. A thread that ends in the window (libdispatch lets an idle worker go after a few
    /// seconds) is not counted: its end is once, not a wake-up that comes back.
    private static func wakeUps(_ pid: pid_t, during window: Duration) async throws -> Int {
        let before = try wakeUps(pid)
        try await Task.sleep(for: window)
        return try wakeUps(pid).reduce(0) { total, thread in total + thread.value - (before[thread.key] ?? 0) }
    }

    @Test("after calls and a hung-up client, no thread wakes; with a round open, the countdown does")
    func idleDaemonNeverWakes() async throws {
        try await DaemonProcess.withRunning(arguments: ["--input", "demo"]) { daemon in
            let pid = try #require(daemon.processID)
            // A call that sleeps nothing, a store call on the blocking pool, and a connection whose idle timer is
            // armed and then given back when it hangs up.
            let connection = try await daemon.connect()
            _ = try await ShakyAPI.SensorInterface.Client(connection).status()
            _ = try await ShakyAPI.PacksInterface.Client(connection).list()
            await connection.close()
            // What is left of start-up and the hang-up settles: on a loaded machine that can take seconds. A monitor
            // waking once a second leaves a quiet 300 ms now and then, which the 2.5 s window after it does not.
            let patience = ContinuousClock.now + .seconds(30)
            while try await Self.wakeUps(pid, during: .milliseconds(300)) > 0, ContinuousClock.now < patience {}
            let idle = try await Self.wakeUps(pid, during: .milliseconds(2500))
            #expect(idle == 0, "\(idle) wake-ups in 2.5 s with nothing to do")

            // The control: the same count sees a round's one-second countdown.
            let host = try await daemon.connect()
            let client = ShakyAPI.GameInterface.Client(host)
            _ = try await client.new(teams: ["Owls", "Foxes"])
            _ = try await client.next()
            #expect(try await Self.wakeUps(pid, during: .milliseconds(2500)) >= 2)
            await host.close()
        }
    }
}

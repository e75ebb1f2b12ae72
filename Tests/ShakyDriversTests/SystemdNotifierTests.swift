import Foundation
import ShakyTesting
import SystemCalls
import Testing

@testable import ShakyDrivers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("Pinging systemd's watchdog")
struct SystemdNotifierTests {
    @Test("pings come at half the watchdog time, and never more often than every 10 ms")
    func pingInterval() {
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 20_000_000) == .seconds(10))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 200_000) == .milliseconds(100))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 1) == .milliseconds(10))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: .max) == .microseconds(Int64.max))
    }

    @Test(
        "The watchdog is on for this process when WATCHDOG_USEC is a whole number above zero",
        arguments: [
            (["WATCHDOG_USEC": "20000000"], Duration.seconds(10)),
            (["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "\(getpid())"], .seconds(10)),
            (["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "\(getpid() + 1)"], nil),
            (["WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "self"], nil),
            (["WATCHDOG_USEC": "0"], nil),
            (["WATCHDOG_USEC": "-5"], nil),
            (["WATCHDOG_USEC": "20 s"], nil),
            ([:], nil),
        ] as [([String: String], Duration?)])
    func watchdogVariables(environment: [String: String], interval: Duration?) {
        #expect(SystemdNotifier { environment[$0] }.watchdogInterval() == interval)
    }
}

@Suite("Telling systemd how the daemon is doing")
struct SystemdNotificationTests {
    @Test("Each message is one datagram to the socket NOTIFY_SOCKET names by its path")
    func messagesGoToThePathSocket() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let systemd = try NotifySocket(path: folder.appendingPathComponent("notify").path)
        let notifier = SystemdNotifier { $0 == "NOTIFY_SOCKET" ? systemd.path : nil }
        notifier.ready(status: "serving 2 teams")
        notifier.watchdog()
        notifier.stopping()
        #expect(await systemd.receive(within: .seconds(10)) == "READY=1\nSTATUS=serving 2 teams")
        #expect(await systemd.receive(within: .seconds(10)) == "WATCHDOG=1")
        #expect(await systemd.receive(within: .seconds(10)) == "STOPPING=1")
    }

    @Test("A name after @ is an abstract socket: the name's bytes, no file")
    func anAbstractName() throws {
        let name = "shaky-notify-test-\(UUID().uuidString)"
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(receiver >= 0)
        defer { close(receiver) }
        // Bound the way systemd binds it: a NUL, then the name, the address no longer than that.
        let address = try #require(SystemdNotifier.address("@" + name))
        let bound = address.withSocketAddress { bind(receiver, $0, $1) }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        #expect(SystemdNotifier { $0 == "NOTIFY_SOCKET" ? "@" + name : nil }.notify("READY=1"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count == 7 && String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1")
        // Nothing but the name: a longer address (a trailing NUL) would be another socket.
        #expect(Int(address.length) == MemoryLayout<sa_family_t>.size + 1 + name.utf8.count)
    }

    @Test(
        "Without NOTIFY_SOCKET, or with an address it cannot use, nothing is sent",
        arguments: [
            nil, "", "relative/notify", "vsock:2:1234", "/" + String(repeating: "x", count: 200), "@",
        ] as [String?])
    func nothingIsSent(socketName: String?) {
        #expect(!SystemdNotifier { $0 == "NOTIFY_SOCKET" ? socketName : nil }.notify("READY=1"))
    }

    @Test(
        "A socket that is not there: READY=1 says why it was not heard, naming the socket; none to tell is no failure")
    func aMissingSocket() {
        let notifier = SystemdNotifier { $0 == "NOTIFY_SOCKET" ? "/nonexistent/shaky/notify" : nil }
        #expect(!notifier.notify("READY=1"))
        let failure = notifier.ready()
        #expect(
            failure?.description
                == "cannot reach systemd's notification socket /nonexistent/shaky/notify: No such file or directory")
        #expect(SystemdNotifier { $0 == "NOTIFY_SOCKET" ? "vsock:2:1234" : nil }.ready()?.reason.isEmpty == false)
        #expect(SystemdNotifier { _ in nil }.ready() == nil)
    }
}

import Testing

@testable import ShakyDrivers

@Suite("Pinging systemd's watchdog")
struct SystemdNotifierTests {
    @Test("pings come at half the watchdog time, and never more often than every 10 ms")
    func pingInterval() {
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 20_000_000) == .seconds(10))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 200_000) == .milliseconds(100))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: 1) == .milliseconds(10))
        #expect(SystemdNotifier.pingInterval(watchdogMicroseconds: .max) == .microseconds(Int64.max))
    }
}

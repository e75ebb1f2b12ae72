import CSystemd

/// Tells systemd how the daemon is doing (`sd_notify`): ready, status lines, watchdog pings, stopping.
///
/// Without `NOTIFY_SOCKET` (not started by systemd with `Type=notify`) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// Creates a notifier.
    public init() {}

    /// Sends raw `KEY=VALUE` lines; returns whether systemd received them.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    /// `READY=1`: the daemon serves requests.
    public func ready(status: String? = nil) {
        notify(["READY=1", status.map { "STATUS=\($0)" }].compactMap { $0 }.joined(separator: "\n"))
    }

    /// `STATUS=…`: one line shown by `systemctl status`.
    public func status(_ text: String) {
        notify("STATUS=\(text)")
    }

    /// `WATCHDOG=1`: the daemon's main loop is alive.
    public func watchdog() {
        notify("WATCHDOG=1")
    }

    /// `STOPPING=1`: the daemon has begun to shut down.
    public func stopping() {
        notify("STOPPING=1")
    }

    /// The interval at which systemd expects `WATCHDOG=1` (``pingInterval(watchdogMicroseconds:)``), or `nil` when no
    /// watchdog is set.
    public func watchdogInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Self.pingInterval(watchdogMicroseconds: microseconds)
    }

    /// Half of systemd's watchdog time (`WATCHDOG_USEC`, half of `WatchdogSec=`), and at least 10 ms, so that a time
    /// of a few microseconds cannot make the pings a busy loop.
    static func pingInterval(watchdogMicroseconds: UInt64) -> Duration {
        .microseconds(max(10_000, Int64(watchdogMicroseconds / 2)))
    }
}

import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Tells systemd how the daemon is doing: ready, status lines, watchdog pings, stopping.
///
/// This is the notification protocol of sd_notify(3), written here rather than called in libsystemd: each message
/// is one datagram of `KEY=VALUE` lines sent to the `AF_UNIX` socket that `NOTIFY_SOCKET` names (a path, or an
/// abstract name after `@`), and the watchdog is on when `WATCHDOG_USEC` says so for this process. systemd documents
/// that protocol as the stable interface (its manual gives a standalone implementation, for programs that would
/// rather not link libsystemd), and linking libsystemd for these few calls mapped it and the six libraries it
/// brings (libgcrypt, libgpg-error, libzstd, liblz4, liblzma, libcap) into the daemon: about 1 MiB of a Pi daemon's
/// resident memory, and their code in its address space.
///
/// Without `NOTIFY_SOCKET` (not started by systemd with `Type=notify`) every call does nothing. Like sd_notify,
/// a send waits while systemd's queue for the socket is full (systemd reads it at once).
public struct SystemdNotifier: Sendable {
    /// `NOTIFY_SOCKET`: where the messages go.
    let socketName: String?
    /// `WATCHDOG_USEC`: the watchdog's time, microseconds.
    let watchdogTime: String?
    /// `WATCHDOG_PID`: the process the watchdog is for (unset: this one).
    let watchdogProcess: String?

    /// A notifier as systemd set up this process's environment.
    public init() {
        self.init { name in getenv(name).map { String(cString: $0) } }
    }

    /// A notifier reading the variables from `variable` (tests).
    init(variable: (String) -> String?) {
        socketName = variable("NOTIFY_SOCKET")
        watchdogTime = variable("WATCHDOG_USEC")
        watchdogProcess = variable("WATCHDOG_PID")
    }

    /// Why a message did not reach systemd's socket, though `NOTIFY_SOCKET` names one.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The socket's name, as `NOTIFY_SOCKET` gives it.
        public var socketName: String
        /// What went wrong.
        public var reason: String

        public var description: String { "cannot reach systemd's notification socket \(socketName): \(reason)" }
    }

    /// Sends raw `KEY=VALUE` lines; returns whether they went to systemd's socket.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard socketName != nil else { return false }
        return send(state) == nil
    }

    /// Sends raw `KEY=VALUE` lines; the failure when `NOTIFY_SOCKET` names a socket the lines did not reach, `nil`
    /// when they did or when there is no socket to tell.
    func send(_ state: String) -> Failure? {
        guard let socketName else { return nil }
        guard let address = Self.address(socketName) else {
            return Failure(socketName: socketName, reason: "not a socket path or an @ name that fits an address")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return Failure(socketName: socketName, reason: String(cString: strerror(errno))) }
        defer { try? closeDescriptor(descriptor) }
        var message = Array(state.utf8)
        let sent = address.withSocketAddress { address, length in
            sendto(descriptor, &message, message.count, Int32(MSG_NOSIGNAL), address, length)
        }
        guard sent == message.count else {
            let reason = sent < 0 ? String(cString: strerror(errno)) : "sent \(sent) of \(message.count) bytes"
            return Failure(socketName: socketName, reason: reason)
        }
        return nil
    }

    /// `READY=1`: the daemon serves requests. Returns why systemd did not hear it, when it was to: it then stops
    /// the daemon once the unit's start time runs out.
    @discardableResult
    public func ready(status: String? = nil) -> Failure? {
        send(["READY=1", status.map { "STATUS=\($0)" }].compactMap { $0 }.joined(separator: "\n"))
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
    /// watchdog is set for this process: `WATCHDOG_USEC` unset, not a whole number above zero, or `WATCHDOG_PID`
    /// naming another process (as sd_watchdog_enabled(3) reads them).
    public func watchdogInterval() -> Duration? {
        guard let watchdogTime, let microseconds = UInt64(watchdogTime), microseconds > 0 else { return nil }
        if let watchdogProcess {
            guard let process = pid_t(watchdogProcess), process == getpid() else { return nil }
        }
        return Self.pingInterval(watchdogMicroseconds: microseconds)
    }

    /// Half of systemd's watchdog time (`WATCHDOG_USEC`, half of `WatchdogSec=`), and at least 10 ms, so that a time
    /// of a few microseconds cannot make the pings a busy loop.
    static func pingInterval(watchdogMicroseconds: UInt64) -> Duration {
        .microseconds(max(10_000, Int64(watchdogMicroseconds / 2)))
    }

    /// The socket address `NOTIFY_SOCKET` names: a path from `/`, or an abstract name after `@`; `nil` for anything
    /// else (systemd's `vsock:` addresses, which a service on this machine is not given), an empty name, or one too
    /// long for an address.
    static func address(_ name: String) -> UnixSocketAddress? {
        if name.hasPrefix("@") { return UnixSocketAddress(abstractName: String(name.dropFirst())) }
        return name.hasPrefix("/") ? UnixSocketAddress(path: name) : nil
    }
}

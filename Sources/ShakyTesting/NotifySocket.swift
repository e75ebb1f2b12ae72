import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Unix datagram socket standing in for systemd's notification socket: point a child's `NOTIFY_SOCKET` at
/// ``path`` and read what it sends with `sd_notify` (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`).
///
/// A thread of its own reads every datagram as soon as it comes, as systemd does: a datagram socket's queue is
/// short (`net.unix.max_dgram_qlen`, often 10), and a sender whose datagrams are not read blocks in `sd_notify`.
public final class NotifySocket: Sendable {
    /// The socket could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }

    private struct Inbox {
        var messages: [String] = []
        var closed = false
    }

    /// The inbox, shared with the reading thread.
    private final class SharedInbox: Sendable {
        let lock = Mutex(Inbox())
    }

    /// The socket's path.
    public let path: String
    private let inbox = SharedInbox()

    /// Binds a datagram socket at `path` and starts reading it.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        guard let address = UnixSocketAddress(path: path) else {
            close(descriptor)
            throw Failure(description: "not a socket path that fits an address: \(path)")
        }
        let result = address.withSocketAddress { bind(descriptor, $0, $1) }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "bind \(path): \(reason)")
        }
        self.path = path
        let inbox = inbox
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while !inbox.lock.withLock({ $0.closed }) {
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { continue }
                let message = String(decoding: buffer[..<count], as: UTF8.self)
                inbox.lock.withLock { $0.messages.append(message) }
            }
            close(descriptor)
        }.start()
    }

    deinit {
        inbox.lock.withLock { $0.closed = true }
        unlink(path)
    }

    /// The next datagram's text, or `nil` when none comes within `timeout`.
    public func receive(within timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let message: String? = inbox.lock.withLock { inbox in
                inbox.messages.isEmpty ? nil : inbox.messages.removeFirst()
            }
            if let message { return message }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

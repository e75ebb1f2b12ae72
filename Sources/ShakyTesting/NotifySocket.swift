import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Unix datagram socket standing in for systemd's notification socket: point a child's `NOTIFY_SOCKET` at
/// ``path`` and read what it sends with `sd_notify` (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`).
public final class NotifySocket: Sendable {
    /// The socket could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }

    /// The socket's path.
    public let path: String
    private let descriptor: Int32

    /// Binds a datagram socket at `path`.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw Failure(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "bind \(path): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram's text, or `nil` when none comes within `timeout`.
    ///
    /// The wait runs on a thread of its own, never on the test's tasks.
    public func receive(within timeout: Duration) async -> String? {
        let descriptor = descriptor
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return await withCheckedContinuation { continuation in
            Thread {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                var ready: Int32
                repeat {
                    ready = poll(&poller, 1, milliseconds)
                } while ready < 0 && errno == EINTR
                guard ready > 0 else { return continuation.resume(returning: nil) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                continuation.resume(returning: count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil)
            }.start()
        }
    }
}

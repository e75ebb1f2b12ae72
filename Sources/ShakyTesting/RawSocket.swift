import Foundation
import ShakyProtocol
import SystemCalls
import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plain POSIX Unix-socket client that writes raw bytes and reads raw Varlink frames.
///
/// Blocking calls run on a Dispatch queue, never on the test's task, and every read gives up after
/// ``readTimeoutSeconds`` so a server that neither answers nor closes fails the test instead of hanging it.
public final class RawSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What a read ended with.
    public enum ReadEnd: Equatable, Sendable {
        /// The server closed the connection.
        case closed
        /// Nothing came within the timeout.
        case timedOut
    }

    public static let readTimeoutSeconds = 20
    public let descriptor: Int32
    private var received: [UInt8] = []

    /// Connects to the Unix socket at `path`.
    ///
    /// - Parameter withoutWaiting: connect without blocking, as an event-driven client does: when the server's
    ///   listen backlog is full this fails at once (`EAGAIN`) instead of waiting for room.
    public init(path: String, withoutWaiting: Bool = false) throws {
        let nonBlocking = withoutWaiting ? Int32(SOCK_NONBLOCK.rawValue) : 0
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | nonBlocking, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: Self.readTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // On a failure below, `deinit` closes the descriptor (the object is whole once it is set): closing it here
        // too closed it twice, and the second close could take a descriptor another thread had opened meanwhile.
        guard let address = UnixSocketAddress(path: path) else {
            throw Failure(description: "not a socket path that fits an address: \(path)")
        }
        let result = address.withSocketAddress { connect(descriptor, $0, $1) }
        guard result == 0 else {
            throw Failure(description: "connect \(path): \(String(cString: strerror(errno)))")
        }
        // Reads and writes block (with the timeout) as usual.
        if withoutWaiting { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Those of `sockets` with something to read, once one has (waiting up to 20 s for one): a reply a server counts
    /// as written may still be on its way to the socket.
    public static func readable(_ sockets: [RawSocket]) -> [RawSocket] {
        var descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), Int32(readTimeoutSeconds * 1000)) > 0 else { return [] }
        return zip(sockets, descriptors).filter { $0.1.revents & Int16(POLLIN) != 0 }.map(\.0)
    }

    /// Closes the connection now.
    public func hangUp() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Writes `bytes` as they are; returns false when the server already closed the connection.
    @discardableResult
    public func write(_ bytes: [UInt8]) async -> Bool {
        let descriptor = descriptor
        return await onThreadOfItsOwn {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Writes `text` followed by the NUL that ends a Varlink message.
    @discardableResult
    public func send(_ text: String) async -> Bool {
        await write(Array(text.utf8) + [0])
    }

    /// Reads the next frame (without its NUL), or how the read ended.
    public func readFrame() async -> Result<[UInt8], ReadEndError> {
        while true {
            if let nul = received.firstIndex(of: 0) {
                let frame = Array(received[..<nul])
                received.removeFirst(nul + 1)
                return .success(frame)
            }
            switch await readChunk() {
            case .success(let chunk): received += chunk
            case .failure(let end): return .failure(end)
            }
        }
    }

    /// Reads the next frame and parses it as a reply.
    public func readReply() async throws -> VarlinkReply {
        switch await readFrame() {
        case .success(let frame): return try VarlinkReply(frame: frame)
        case .failure(let end): throw Failure(description: "expected a reply, but the read ended: \(end.end)")
        }
    }

    /// Reads until the server closes; returns every byte it sent first (nothing, for "closed without a reply").
    public func readUntilClosed() async -> Result<[UInt8], ReadEndError> {
        var bytes = received
        received = []
        while true {
            switch await readChunk() {
            case .success(let chunk): bytes += chunk
            case .failure(let end) where end.end == .closed: return .success(bytes)
            case .failure(let end): return .failure(end)
            }
        }
    }

    public struct ReadEndError: Error, Equatable {
        public var end: ReadEnd
    }

    private func readChunk() async -> Result<[UInt8], ReadEndError> {
        let descriptor = descriptor
        return await onThreadOfItsOwn {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 { return .success(Array(buffer[..<count])) }
                if count == 0 { return .failure(ReadEndError(end: .closed)) }
                switch errno {
                case EINTR: continue
                case EAGAIN: return .failure(ReadEndError(end: .timedOut))
                default: return .failure(ReadEndError(end: .closed))  // ECONNRESET and friends
                }
            }
        }
    }
}

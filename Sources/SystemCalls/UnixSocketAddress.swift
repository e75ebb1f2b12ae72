#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The address of an `AF_UNIX` socket, for `bind`, `connect` and `sendto`: a path in the file system, or an abstract
/// name (no file; its bytes follow a NUL, and its length is exact).
public struct UnixSocketAddress {
    private var address = sockaddr_un()
    /// The address's length: the family and the bytes given, a path's terminating NUL included.
    public let length: socklen_t

    /// The longest path an address holds, in bytes (`sun_path` less its terminating NUL).
    public static let longestPath = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of the socket file at `path`; `nil` when the path is empty, holds a NUL or is longer than
    /// ``longestPath``.
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { return nil }
        self.init(sunPath: bytes + [0])
    }

    /// The abstract address `name` (without the leading NUL that marks it); `nil` when empty or too long.
    public init?(abstractName name: String) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { return nil }
        self.init(sunPath: [0] + bytes)
    }

    private init?(sunPath bytes: [UInt8]) {
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    /// Runs `body` with the address as a `sockaddr` and its length.
    public func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) rethrows -> Result {
        try withUnsafePointer(to: address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}

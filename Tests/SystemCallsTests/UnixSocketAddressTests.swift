import Testing

@testable import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Addresses of Unix sockets: a path with its terminating NUL, an abstract name exactly, and what fits neither.
@Suite struct UnixSocketAddressTests {
    static let familySize = MemoryLayout<sa_family_t>.size

    /// The bytes of `address`'s `sun_path` that its length covers.
    static func pathBytes(_ address: UnixSocketAddress) -> [UInt8] {
        address.withSocketAddress { pointer, length in
            pointer.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { address in
                #expect(address.pointee.sun_family == sa_family_t(AF_UNIX))
                return withUnsafeBytes(of: address.pointee.sun_path) { Array($0.prefix(Int(length) - familySize)) }
            }
        }
    }

    @Test("A path is its bytes and a NUL, up to the longest the address holds")
    func paths() throws {
        let address = try #require(UnixSocketAddress(path: "/run/shaky.sock"))
        #expect(Self.pathBytes(address) == Array("/run/shaky.sock".utf8) + [0])
        #expect(Int(address.length) == Self.familySize + 16)
        let longest = String(repeating: "x", count: UnixSocketAddress.longestPath)
        #expect(UnixSocketAddress(path: longest) != nil)
        #expect(UnixSocketAddress(path: longest + "x") == nil, "one byte too long")
        #expect(UnixSocketAddress(path: "") == nil)
        #expect(UnixSocketAddress(path: "/run/a\u{0}b") == nil, "a NUL would cut the path short")
    }

    @Test("An abstract name is a NUL and its bytes, with no NUL after them")
    func abstractNames() throws {
        let address = try #require(UnixSocketAddress(abstractName: "shaky"))
        #expect(Self.pathBytes(address) == [0] + Array("shaky".utf8))
        #expect(Int(address.length) == Self.familySize + 6)
        #expect(UnixSocketAddress(abstractName: "") == nil)
        #expect(UnixSocketAddress(abstractName: String(repeating: "x", count: UnixSocketAddress.longestPath)) != nil)
        #expect(
            UnixSocketAddress(abstractName: String(repeating: "x", count: UnixSocketAddress.longestPath + 1)) == nil)
    }
}

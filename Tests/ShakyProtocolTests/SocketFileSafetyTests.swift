import Foundation
import Logging
import ShakyTesting
import Testing

@testable import ShakyProtocol
@testable import Varlink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The socket's file and folder cannot be turned against their owner by another local user.
@Suite("Socket file safety")
struct SocketFileSafetyTests {
    static let nobody: uid_t = 65534

    @Test("Restricting the socket never follows a link put in its place: the linked file keeps its mode")
    func restrictRefusesALink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secret = directory.path + "/secret"
        try Data("private".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(chmod(secret, 0o600) == 0)
        let socketPath = directory.path + "/shaky.sock"
        #expect(symlink(secret, socketPath) == 0)

        #expect(throws: VarlinkSocketPathError.self) {
            try UnixSocketFile.restrict(path: socketPath, group: "root", logger: Logger(label: "test"))
        }
        var status = stat()
        #expect(stat(secret, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test("A bound socket gets mode 0660 and the group")
    func restrictSetsModeAndGroup() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socketPath = directory.path + "/shaky.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        try UnixSocketFile.restrict(path: socketPath, group: "daemon", logger: Logger(label: "test"))
        var status = stat()
        #expect(lstat(socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        #expect(status.st_gid == UserDatabase.groupID(named: "daemon"))
    }

    @Test("The /tmp fallback folder is created 0700; a folder of another user, a shared mode or a link is refused")
    func privateDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fresh = directory.path + "/shaky-0"
        try PrivateSocketDirectory.create(fresh)
        var status = stat()
        #expect(lstat(fresh, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)

        let foreign = directory.path + "/foreign"
        #expect(mkdir(foreign, 0o700) == 0)
        #expect(chown(foreign, Self.nobody, gid_t(Self.nobody)) == 0)
        let error = #expect(throws: VarlinkSocketPathError.self) { try PrivateSocketDirectory.create(foreign) }
        #expect(error?.reason.contains("belongs to uid 65534") == true)

        let shared = directory.path + "/shared"
        #expect(mkdir(shared, 0o755) == 0)
        #expect(chmod(shared, 0o755) == 0)
        #expect(throws: VarlinkSocketPathError.self) { try PrivateSocketDirectory.verify(shared) }

        let link = directory.path + "/link"
        #expect(symlink(fresh, link) == 0)
        #expect(throws: VarlinkSocketPathError.self) { try PrivateSocketDirectory.verify(link) }
    }

    @Test("The client does not call a daemon in a fallback folder another user owns")
    func clientRefusesAForeignFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let foreign = directory.path + "/shaky-1000"
        #expect(mkdir(foreign, 0o777) == 0)
        let socketPath = foreign + "/shaky.sock"
        let service = try VarlinkService(vendor: "test", product: "test", version: "1", url: "", interfaces: [])
        let server = try await VarlinkServer.bind(to: .unixSocket(path: socketPath), service: service)
        let serving = Task { try await server.run() }
        defer { serving.cancel() }
        #expect(chown(foreign, Self.nobody, gid_t(Self.nobody)) == 0)

        let error = await #expect(throws: ShakyClientError.self) {
            _ = try await ShakyClient.connect(trying: [socketPath], privateDirectory: foreign)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("belongs to uid 65534"))
    }
}

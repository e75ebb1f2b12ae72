import Logging
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// One daemon per state folder: a second is refused with a message that says why and what to do.
@Suite("State folder lock")
struct StateDirectoryLockTests {
    static func start(in state: TemporaryDirectory, socket: String) async throws -> Daemon {
        let configuration = DaemonConfiguration(
            resolving: DaemonOptions(
                socket: state.appending(socket), stateDirectory: state.path, input: "none", soundDevice: "none"))
        return try await Daemon.start(
            configuration: configuration, clock: ManualClock(), accessPolicy: AllowEveryoneAccessPolicy(),
            soundPlayer: RecordingSoundPlayer(), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    @Test("A second daemon on the same state folder is refused until the first stops")
    func secondDaemonIsRefused() async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-lock")
        defer { state.remove() }
        let first = try await Self.start(in: state, socket: "a.sock")
        let error = await #expect(throws: StateDirectoryLockError.self) {
            _ = try await Self.start(in: state, socket: "b.sock")
        }
        #expect(error?.description.contains("shakyd (pid \(getpid())) is already using it") == true)
        #expect(error?.holder == getpid())
        await first.shutDown()

        let second = try await TestDaemon.startOnceOwnLockIsGone { try await Self.start(in: state, socket: "b.sock") }
        await second.shutDown()
    }
}

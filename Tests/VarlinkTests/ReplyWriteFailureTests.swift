import Logging
import NIOCore
import ShakyTesting
import Testing

@testable import Varlink

/// A client that hangs up before its reply is written is an ordinary event, not a failed call: the error log is kept
/// for calls that fail.
@Suite("Replies that cannot be written")
struct ReplyWriteFailureTests {
    static let description = """
        interface org.example.Written

        method Get() -> (count: int)

        method Break() -> ()
        """

    struct Broken: Error, CustomStringConvertible {
        var description: String { "broken" }
    }

    static func service(logger: Logger) throws -> VarlinkService {
        let interface = try VarlinkInterface(
            description: description,
            methods: ["Get": .reply { _ in ["count": 1] }, "Break": .reply { _ in throw Broken() }])
        return try VarlinkService(
            vendor: "v", product: "p", version: "1", url: "u", interfaces: [interface], logger: logger)
    }

    @Test("A reply the connection closed before is passed on as the write's error and logged only for debugging")
    func clientGone() async throws {
        let recorder = LogRecorder()
        let service = try Self.service(logger: recorder.logger())
        await #expect(throws: ChannelError.ioOnClosedChannel) {
            try await service.respond(to: VarlinkCall(method: "org.example.Written.Get"), from: .currentProcess) {
                _ in throw ChannelError.ioOnClosedChannel
            }
        }
        #expect(recorder.levels.withLock { $0 } == [.debug])
    }

    @Test("A handler that fails is still an error in the log")
    func handlerFails() async throws {
        let recorder = LogRecorder()
        let service = try Self.service(logger: recorder.logger())
        await #expect(throws: Broken.self) {
            try await service.respond(to: VarlinkCall(method: "org.example.Written.Break"), from: .currentProcess) {
                _ in
            }
        }
        #expect(recorder.levels.withLock { $0 } == [.error])
    }
}

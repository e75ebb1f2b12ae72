import Foundation
import Testing

@testable import ShakyDaemon

/// Store calls that may take long run on NIO's blocking pool, not where the calling task runs (in `shakyd`, the event
/// loop that serves every connection).
@Suite struct BlockingWorkTests {
    struct Refusal: Error, Equatable {}

    /// The kernel's name of the thread running now.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .newlines)
    }

    @Test("The work runs on the blocking pool's thread and its result comes back")
    func runsOnThePool() async throws {
        let name = try await BlockingWork.run { Self.threadName() }
        #expect(name.hasPrefix("SGLTN-TP-#"), "ran on \(name)")
    }

    @Test("What the work throws comes back as it was thrown")
    func errorsPassThrough() async {
        await #expect(throws: Refusal.self) { try await BlockingWork.run { throw Refusal() } }
    }

    struct Reply: Error, Equatable { var message: String }

    @Test("With a mapping, what the work throws comes back as the error made of it, and a result as it was")
    func errorsAreMapped() async throws {
        let reply = await #expect(throws: Reply.self) {
            try await BlockingWork.run({ throw Refusal() }) { Reply(message: "\($0)") }
        }
        #expect(reply == Reply(message: "Refusal()"))
        #expect(try await BlockingWork.run({ 42 }) { Reply(message: "\($0)") } == 42)
    }
}

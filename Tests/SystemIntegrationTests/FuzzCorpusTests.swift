import Foundation
import ShakyTesting
import Testing
import Varlink

@testable import ShakyFuzzing

/// Every committed fuzzing input, the crashes the fuzzers and an attack run found among them, runs clean through
/// its target in the ordinary test run (`make fuzz` searches for new ones).
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    static let corpus = BuiltProduct.checkout.appendingPathComponent("Tests/Fuzz/Corpus")

    /// The inputs run on a thread of their own, as under libFuzzer: the varlink target blocks its thread until the
    /// in-process daemon has answered, which on one of the tasks' threads waits for a thread it may hold itself.
    @Test(arguments: FuzzTarget.allCases)
    func everyInputRunsClean(target: FuzzTarget) async throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty, "no corpus for \(target.rawValue)")
        try await onThreadOfItsOwn {
            for file in files {
                target.run(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
            }
        }
    }

    /// The varlink target's daemon plays: a fuzzer calling one that refused every call would search the refusals
    /// only.
    @Test func inProcessDaemonPlaysARound() async throws {
        let daemon = try await InProcessDaemon.start()
        let frames = [
            #"{"method":"io.shakywords.Game.New","parameters":{"teams":["Owls","Foxes"],"questions":1,"seed":7}}"#,
            #"{"method":"io.shakywords.Game.Next"}"#,
            #"{"method":"io.shakywords.Game.Status"}"#,
        ]
        var replies: [VarlinkReply] = []
        for frame in frames {
            try await daemon.service.handle(try VarlinkCall(frame: Array(frame.utf8)), from: .currentProcess) {
                replies.append($0)
            }
        }
        await daemon.shutDown()
        #expect(replies.count == frames.count)
        #expect(replies.map(\.error) == [nil, nil, nil])
        guard case .object(let status)? = replies.last?.parameters["status"] else {
            Issue.record("Status answered no state")
            return
        }
        #expect(status["phase"] == .string("indication"))
        #expect(status["questionNumber"] == .int(1))
    }
}

import Foundation
import ShakyFuzzing
import ShakyTesting
import Testing

/// Every committed fuzzing input, the crashes the fuzzers and an attack run found among them, runs clean through
/// its target in the ordinary test run (`make fuzz` searches for new ones).
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    static let corpus = BuiltProduct.checkout.appendingPathComponent("Tests/Fuzz/Corpus")

    @Test(arguments: FuzzTarget.allCases)
    func everyInputRunsClean(target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty, "no corpus for \(target.rawValue)")
        for file in files {
            target.run(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
        }
    }
}

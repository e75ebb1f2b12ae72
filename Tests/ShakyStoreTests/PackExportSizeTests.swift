import Foundation
import Testing

@testable import ShakyStore

/// Every pack the daemon holds exports, in every format, to a file it imports back.
@Suite struct PackExportSizeTests {
    @Test("A CSV file of short questions whose JSON export would pass the file limit is refused, saying why")
    func aPackTooLargeToExportAndImportBackIsRefused() throws {
        // 200 000 rows of a few bytes: under 2 MiB of CSV, over 16 MiB as JSON.
        var csv = "question,answer\n"
        csv.reserveCapacity(2 << 20)
        for index in 0..<200_000 { csv += "Q\(index)?,A\n" }
        #expect(csv.utf8.count < PackRules.largestPackFile)
        let database = try AppDatabase.inMemory()
        let error = #expect(throws: StoreError.self) {
            try database.importPack(Data(csv.utf8), format: .csv, name: "Short")
        }
        guard case .importFailed(let problems, 0) = error, let problem = problems.first?.problem else {
            Issue.record("expected one import problem, got \(String(describing: error))")
            return
        }
        #expect(problem.hasPrefix("the pack of 200000 questions would be "), "\(problem)")
        #expect(problem.hasSuffix("so that what is exported imports back: split the file into two packs"))
        #expect(try database.packs().isEmpty)
    }

    @Test("An exported pack is within the limit and imports back, in every format")
    func anExportedPackImportsBack() throws {
        let database = try AppDatabase.inMemory()
        let csv = "question,answer\n" + (0..<1_000).map { "Q\($0)?,A\n" }.joined()
        try database.importPack(Data(csv.utf8), format: .csv, name: "Small")
        for format in PackFileFormat.allCases {
            let exported = try database.exportPack(named: "Small", format: format)
            #expect(exported.count <= PackRules.largestPackFile)
            #expect(try PackFile.read(exported, format: format).questions.count == 1_000)
        }
    }
}

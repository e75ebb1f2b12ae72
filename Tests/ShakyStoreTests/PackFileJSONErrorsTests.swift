import Foundation
import Testing

@testable import ShakyStore

/// JSON values that Foundation's decoder refuses without a place, or reads as something else, are named by their
/// line and field with what to do.
@Suite struct PackFileJSONErrorsTests {
    /// The one problem importing `data` as `format` gives.
    static func problem(_ data: Data, format: PackFileFormat = .json) -> PackFileProblem? {
        let error = #expect(throws: StoreError.self) {
            try AppDatabase.inMemory().importPack(data, format: format, name: "N")
        }
        guard case .importFailed(let problems, 0) = error, problems.count == 1 else {
            Issue.record("expected one import problem, got \(String(describing: error))")
            return nil
        }
        return problems[0]
    }

    static let versionProblem =
        "the version is a whole number of 1 or more (raised by 1 whenever the file changes), such as 2"

    @Test(
        "A version that is not a whole number that fits is named by its line and field",
        arguments: ["1.5", "99999999999999999999", "\"x\""])
    func aVersionThatIsNotWholeIsNamed(version: String) {
        let json = "{\n  \"name\": \"N\",\n  \"version\": \(version),\n  \"questions\": []\n}"
        #expect(
            Self.problem(Data(json.utf8)) == PackFileProblem(line: 3, field: "version", problem: Self.versionProblem))
    }

    @Test("A number too large to read is named by its line and column, wherever it is")
    func aNumberTooLargeIsNamed() {
        let json = "{\n  \"name\": \"N\",\n  \"version\": 1e999,\n  \"questions\": []\n}"
        #expect(
            Self.problem(Data(json.utf8))
                == PackFileProblem(
                    line: 3, problem: "the number “1e999” is too large to be read; write it in quotes if it is text"))
        let inQuestion = "{\"name\": \"N\", \"questions\": [\n{\"question\": \"Q?\", \"answer\": -1E400}]}"
        #expect(Self.problem(Data(inQuestion.utf8))?.line == 2)
    }

    @Test(
        "Half of a surrogate pair is named by its line, and what to write instead",
        arguments: [#"\ud800"#, #"\uDC00x"#, #"\ud800\u0041"#])
    func aLoneSurrogateIsNamed(escape: String) {
        let json = "{\"name\": \"N\", \"questions\": [\n{\"question\": \"Q?\",\n\"answer\": \"A\(escape)\"}]}"
        let problem = Self.problem(Data(json.utf8))
        #expect(problem?.line == 3)
        #expect(problem?.problem.contains("half of a UTF-16 surrogate pair without its other half") == true)
        #expect(problem?.problem.contains("write the character itself") == true)
    }

    @Test("A pair of surrogates is one character, as before")
    func aSurrogatePairIsRead() throws {
        let json = #"{"name": "Faces", "questions": [{"question": "Q?", "answer": "A \ud83d\ude00"}]}"#
        let database = try AppDatabase.inMemory()
        try database.importPack(Data(json.utf8), format: .json)
        #expect(try database.questions(inPacks: ["Faces"]).map(\.answer) == ["A 😀"])
    }

    @Test(
        "A file in UTF-16 or UTF-32 is said to be one, with how to save it as UTF-8", arguments: PackFileFormat.allCases
    )
    func wideTextIsNamed(format: PackFileFormat) {
        let text = format == .json ? #"{"name": "N", "questions": []}"# : "question,answer\nQ?,A\n"
        for (encoding, name) in [(String.Encoding.utf16LittleEndian, "UTF-16"), (.utf16BigEndian, "UTF-16")] {
            let bom: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            let data = Data(bom) + (text.data(using: encoding) ?? Data())
            let problem = Self.problem(data, format: format)
            #expect(problem?.line == 1)
            #expect(problem?.problem.hasPrefix("the file is \(name) text") == true, "\(String(describing: problem))")
            #expect(problem?.problem.contains("save it as UTF-8") == true)
        }
        let utf32 = Data([0xFF, 0xFE, 0, 0]) + (text.data(using: .utf32LittleEndian) ?? Data())
        #expect(Self.problem(utf32, format: format)?.problem.hasPrefix("the file is UTF-32 text") == true)
        // Without a byte order mark, as iconv writes it: valid UTF-8 full of NULs, which said no "question" column.
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian] {
            let problem = Self.problem(text.data(using: encoding) ?? Data(), format: format)
            #expect(
                problem?.problem.hasPrefix("the file is UTF-16 text (every other byte of its first character is zero)")
                    == true, "\(String(describing: problem))")
        }
    }
}

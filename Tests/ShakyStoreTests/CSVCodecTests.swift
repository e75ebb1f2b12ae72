import Foundation
import Testing

@testable import ShakyStore

@Suite struct CSVCodecTests {
    @Test func readsQuotedFieldsWithCommasQuotesAndLineBreaks() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nplain,,end\r\n"
        let records = try CSVCodec.parse(text)
        #expect(
            records.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", "end"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test("A line break inside quotes is a LF, whether the file's lines end in CRLF, LF or CR")
    func aLineBreakInsideQuotesIsALineFeed() throws {
        for lineEnd in ["\r\n", "\n", "\r"] {
            let text = ["question,answer", "\"Multi", "line?\",Bern", ""].joined(separator: lineEnd)
            let records = try CSVCodec.parse(text)
            #expect(records.map(\.fields) == [["question", "answer"], ["Multi\nline?", "Bern"]], "\(Array(lineEnd))")
        }
    }

    @Test("A CRLF file with a question on two lines imports, as its LF twin does")
    func aCRLFFileWithAQuestionOnTwoLinesImports() throws {
        let database = try AppDatabase.inMemory()
        let text = "question,answer\r\n\"Which city is\r\nthe capital?\",Bern\r\n"
        _ = try database.importPack(Data(text.utf8), format: .csv, name: "Cities")
        #expect(try database.questions(inPacks: ["Cities"]).map(\.text) == ["Which city is\nthe capital?"])
    }

    @Test("A tab in a question's text becomes a space, which every screen can lay out")
    func aTabInAQuestionBecomesASpace() throws {
        let database = try AppDatabase.inMemory()
        let text = "question,answer\n\"Which city\tis the capital?\t\",Bern\n"
        _ = try database.importPack(Data(text.utf8), format: .csv, name: "Cities")
        #expect(try database.questions(inPacks: ["Cities"]).map(\.text) == ["Which city is the capital?"])
    }

    @Test func toleratesBOMAndLoneLineFeedsOrCarriageReturnsAndAMissingFinalLineBreak() throws {
        let records = try CSVCodec.parse("\u{FEFF}a,b\nc,d\re,f")
        #expect(records.map(\.fields) == [["a", "b"], ["c", "d"], ["e", "f"]])
        #expect(records.map(\.line) == [1, 2, 3])
    }

    @Test func keepsNonASCIIAndEmptyTrailingFields() throws {
        let records = try CSVCodec.parse("Hà Nội,Ærø,\n\"Đà Nẵng\",,\n")
        #expect(records.map(\.fields) == [["Hà Nội", "Ærø", ""], ["Đà Nẵng", "", ""]])
    }

    @Test func readsSemicolonSeparatedFiles() throws {
        let records = try CSVCodec.parse("a;\"b;c\"\n", delimiter: ";")
        #expect(records.map(\.fields) == [["a", "b;c"]])
    }

    @Test func namesTheLineOfAnUnclosedQuote() {
        #expect(throws: CSVCodec.SyntaxError(line: 2, problem: "a quoted field is never closed")) {
            try CSVCodec.parse("a,b\n\"open,\nstill open\n")
        }
    }

    @Test func namesTheLineOfAStrayQuote() {
        #expect(throws: CSVCodec.SyntaxError.self) { try CSVCodec.parse("a,b\nc,d\"e\n") }
        let error = #expect(throws: CSVCodec.SyntaxError.self) { try CSVCodec.parse("a\n\"b\"x\n") }
        #expect(error?.line == 2)
    }

    @Test func writesWhatItReads() throws {
        let rows = [
            ["question", "answer"], ["Say \"cheese\", please", "Brie"], ["two\nlines", " padded "], ["Hà Nội", ""],
        ]
        let text = CSVCodec.format(rows)
        #expect(text.hasPrefix("question,answer\r\n\"Say \"\"cheese\"\", please\",Brie\r\n"))
        #expect(try CSVCodec.parse(text).map(\.fields) == rows)
    }
}

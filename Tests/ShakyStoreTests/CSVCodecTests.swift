import Testing

@testable import ShakyStore

@Suite struct CSVCodecTests {
    @Test func readsQuotedFieldsWithCommasQuotesAndLineBreaks() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nplain,,end\r\n"
        let records = try CSVCodec.parse(text)
        #expect(
            records.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\r\nlines"], ["plain", "", "end"]])
        #expect(records.map(\.line) == [1, 2, 4])
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

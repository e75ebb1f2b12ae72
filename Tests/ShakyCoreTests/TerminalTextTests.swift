import ShakyCore
import Testing

@Suite("Terminal text")
struct TerminalTextTests {
    @Test(arguments: ["\u{0}", "\u{1B}[31m", "\r", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{200F}"])
    func refusesControlsAndBidiMarks(text: String) {
        #expect(TerminalText.firstUnsafeScalar(in: "ok" + text) != nil)
        #expect(TerminalText.problem(in: text)?.contains("U+") == true)
        #expect(!TerminalText.printable(text).unicodeScalars.contains { !TerminalText.isSafe($0) })
    }

    @Test func keepsLettersEmojiAndLineBreaksWhereAllowed() {
        for text in ["Hà Nội", "Ø", "👩‍👩‍👧", "日本", "Ωmega"] {
            #expect(TerminalText.firstUnsafeScalar(in: text) == nil, "\(text)")
        }
        #expect(TerminalText.firstUnsafeScalar(in: "a\nb\tc") == "\n")
        #expect(TerminalText.firstUnsafeScalar(in: "a\nb\tc", allowingLineBreaks: true) == nil)
        #expect(TerminalText.printable("\u{202E}evil\u{1B}[31m\nok") == "\u{FFFD}evil\u{FFFD}[31m\nok")
        #expect(TerminalText.problem(in: "x\u{1B}") == "holds the control character U+001B, which cannot be shown")
    }

    @Test func keepsTheCarriageReturnOfACRLFLineBreakOnly() {
        // An exported CSV file's lines end in CRLF: the file must come through whole.
        #expect(TerminalText.printable("question,answer\r\nQ?,A\r\n") == "question,answer\r\nQ?,A\r\n")
        #expect(TerminalText.printable("fake\rreal") == "fake\u{FFFD}real")
        #expect(TerminalText.printable("end\r") == "end\u{FFFD}")
        #expect(TerminalText.printable("\r\r\n") == "\u{FFFD}\r\n")
    }

    @Test("A name's printable form replaces a tab and a line break too")
    func aNamesPrintableFormIsOneLine() {
        #expect(TerminalText.printable("Tab\there\r\n") == "Tab\there\r\n")
        #expect(TerminalText.printable("Tab\there\r\n", allowingLineBreaks: false) == "Tab\u{FFFD}here\u{FFFD}\u{FFFD}")
    }
}

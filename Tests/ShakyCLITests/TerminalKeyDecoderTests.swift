import Testing

@testable import ShakyCLI

/// The keys `shaky play` reads from a terminal whose line editing is off.
@Suite struct TerminalKeyDecoderTests {
    private static func keys(_ bytes: [UInt8]) -> [TerminalKey] {
        var decoder = TerminalKeyDecoder()
        return decoder.keys(in: bytes)
    }

    private static func keys(_ text: String) -> [TerminalKey] { keys(Array(text.utf8)) }

    @Test("Typed and pasted text is one key, split at the keys among it")
    func textAndControls() {
        #expect(Self.keys("b Owls\n") == [.text("b Owls"), .enter])
        #expect(Self.keys("ab\u{7F}c\r") == [.text("ab"), .backspace, .text("c"), .enter])
        #expect(
            Self.keys("\u{01}\u{05}\u{02}\u{06}\u{15}\u{0B}\u{17}\u{04}\u{0C}\u{10}\u{0E}\u{08}")
                == [
                    .home, .end, .left, .right, .deleteToStart, .deleteToEnd, .deleteWordBefore, .endOfInputOrDelete,
                    .redraw, .previousLine, .nextLine, .backspace,
                ])
        // A tab is a space; the other control characters type nothing.
        #expect(Self.keys("a\tb\u{07}\u{13}\u{11}") == [.text("a b")])
    }

    @Test("xterm's and the keypad's sequences for arrows, Home, End and Delete")
    func escapeSequences() {
        #expect(Self.keys("\u{1B}[D\u{1B}[C\u{1B}[A\u{1B}[B") == [.left, .right, .previousLine, .nextLine])
        #expect(Self.keys("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF") == [.home, .end, .home, .end])
        #expect(Self.keys("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}[3~") == [.home, .end, .home, .end, .delete])
        #expect(Self.keys("\u{1B}[1;5D\u{1B}[1;5C\u{1B}[1;3D") == [.wordLeft, .wordRight, .wordLeft])
        #expect(Self.keys("\u{1B}[1;2D") == [.left], "Shift alone moves by a character")
        #expect(Self.keys("\u{1B}b\u{1B}f\u{1B}\u{7F}") == [.wordLeft, .wordRight, .deleteWordBefore])
    }

    @Test("A sequence this does not read is dropped whole: none of its bytes shows as text")
    func unknownSequencesAreDropped() {
        // F5, a mouse report, bracketed paste's markers, Alt-x.
        #expect(Self.keys("a\u{1B}[15~b\u{1B}[<0;3;4Mc\u{1B}[200~d\u{1B}[201~\u{1B}xe") == [.text("abcde")])
        // Longer than any key's: dropped from where it goes over, so garbage holds no memory.
        let long = "\u{1B}[" + String(repeating: "1", count: TerminalKeyDecoder.longestSequence + 5) + "Dz"
        var decoder = TerminalKeyDecoder()
        #expect(decoder.keys(in: Array(long.utf8)).last == .text(String(repeating: "1", count: 4) + "Dz"))
        #expect(!decoder.isInsideSequence)
    }

    @Test("A bracketed paste is text: its line breaks and tabs are spaces, and no key in it acts")
    func bracketedPaste() {
        let paste = "\u{1B}[200~e\ny\r\nsnow\tleopard\rq\u{15}\u{1B}[D\u{1B}bx\u{1B}[201~"
        #expect(Self.keys(paste + "\u{7F}\n") == [.text("e y snow leopard qx"), .backspace, .enter])
        // Split between reads, and its end marker lost: after a moment of nothing, keys act again.
        var decoder = TerminalKeyDecoder()
        #expect(decoder.keys(in: Array("\u{1B}[200~a\n".utf8)) == [.text("a ")])
        #expect(decoder.isInsideSequence)
        #expect(decoder.keys(in: Array("b".utf8)) == [.text("b")])
        decoder.abandonSequence()
        #expect(decoder.keys(in: Array("\n".utf8)) == [.enter])
    }

    @Test("Control strings (a window title, DCS) are dropped whole, up to BEL or ST, or up to their longest")
    func controlStrings() {
        #expect(Self.keys("X\u{1B}]0;title\u{07}Y\u{1B}Pfoo\u{1B}\\Z\u{1B}_apc\u{1B}\\") == [.text("XYZ")])
        let unterminated = "\u{1B}]" + String(repeating: "t", count: TerminalKeyDecoder.longestControlString) + "!ok\n"
        #expect(Self.keys(unterminated) == [.text("ok"), .enter], "what follows an overlong one is read as keys")
    }

    @Test("A key split between two reads is read once it is whole")
    func splitKeys() {
        var decoder = TerminalKeyDecoder()
        let owl = Array("é🦉".utf8)
        #expect(decoder.keys(in: [0x1B]).isEmpty)
        #expect(decoder.isInsideSequence)
        #expect(decoder.keys(in: Array("[".utf8)).isEmpty)
        #expect(decoder.keys(in: Array("D".utf8)) == [.left])
        #expect(decoder.keys(in: owl[..<1]).isEmpty)
        #expect(decoder.keys(in: owl[1..<4]) == [.text("é")])
        #expect(decoder.isInsideSequence)
        #expect(decoder.keys(in: owl[4...]) == [.text("🦉")])
        #expect(!decoder.isInsideSequence)
    }

    @Test("A lone Escape is dropped when nothing follows it in time")
    func loneEscape() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.keys(in: [0x1B]).isEmpty)
        decoder.abandonSequence()
        #expect(decoder.keys(in: Array("b".utf8)) == [.text("b")], "b is typed, not Alt-B")
    }

    @Test("Bytes that are not UTF-8, C1 controls and bidirectional marks type nothing")
    func unsafeText() {
        #expect(Self.keys([0x61, 0xFF, 0x62, 0xC3, 0x63]) == [.text("abc")])
        #expect(Self.keys(Array("a\u{85}b\u{202E}c\u{200F}d".utf8)) == [.text("abcd")])
    }
}

import ShakyBoard
import Testing

/// Columns by display width, as terminals count them.
@Suite("Display width")
struct DisplayWidthTests {
    @Test(arguments: [
        ("Owls", 4), ("Phở bò", 6), ("Cú Mèo", 6), ("Γλαύκες", 7), ("東京", 4), ("猫头鹰", 6), ("😀", 2),
        ("🦇 Bats", 7), ("e\u{301}", 1), ("한국", 4), ("ＡＢ", 4), ("\t", 0),
    ])
    func countsColumnsNotCharacters(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    /// As tmux (and glibc's `wcwidth`, which curses goes by) draws them: a vowel sign that takes a column of its
    /// own counts, a zero-width space or joiner does not, a soft hyphen is shown.
    @Test(arguments: [
        ("कि", 2), ("हिन्दी", 5), ("தமிழ்", 4), ("น้ำ", 2), ("Zoe\u{308}", 3), ("Owls\u{200B}", 4), ("\u{200D}", 0),
        ("a\u{200D}b", 2), ("\u{AD}", 1), ("עברית", 5), ("العربية", 7), ("☺", 1), ("\u{1100}\u{1161}\u{11A8}", 2),
    ])
    func countsTheColumnsOfEachLetterInACluster(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    /// Emoji sequences a modern terminal draws as one picture take two columns, not two for each emoji in them.
    @Test(arguments: ["👨‍👩‍👧‍👦", "🇫🇷", "👍🏽", "❤️", "🏳️‍🌈", "1️⃣", "🧑‍💻"])
    func anEmojiSequenceTakesTwoColumns(_ emoji: String) {
        #expect(emoji.count == 1)
        #expect(DisplayWidth.of(emoji) == 2)
    }

    @Test func cutsWithoutSplittingAWideCharacter() {
        #expect(DisplayWidth.prefix("東京タワー", columns: 5) == "東京")
        #expect(DisplayWidth.truncated("東京タワー", columns: 5) == "東京…")
        #expect(DisplayWidth.truncated("Owls", columns: 4) == "Owls")
    }

    @Test func wrapsAtSpacesByWidth() {
        #expect(DisplayWidth.wrap("東京 の 料理 は 何", columns: 6) == ["東京", "の", "料理", "は 何"])
        #expect(DisplayWidth.wrap("Supercalifragilistic", columns: 8) == ["Supercal", "ifragili", "stic"])
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func keepsTheTextsOwnLineBreaks(lineBreak: String) {
        let text = ["Line one", "Line two", "", "Line three?"].joined(separator: lineBreak)
        #expect(DisplayWidth.wrap(text, columns: 40) == ["Line one", "Line two", "Line three?"])
        #expect(DisplayWidth.wrap(text, columns: 6) == ["Line", "one", "Line", "two", "Line", "three?"])
        #expect(DisplayWidth.wrap("a\tb", columns: 40) == ["a b"], "a tab is a space")
    }

    @Test func aWideCharacterTakesTwoCellsOnTheScreen() {
        var screen = BoardScreen(width: 6, height: 1)
        screen.put("a東b", row: 0, column: 0)
        #expect(screen.lines == ["a東b"])
        screen.put("x", row: 0, column: 2)
        #expect(screen.lines == ["a xb"], "overwriting half of a wide character blanks the other half")
        screen.put("京京京", row: 0, column: 1)
        #expect(screen.lines == ["a京京"], "a wide character that does not fit is left out")
    }

    /// A cluster of several letters ("न्दी", a conjunct with its vowel sign) takes a cell for each of its columns: it
    /// took one and the two after it stayed blank, so curses drew it over them and pushed the row out of place.
    @Test func aClusterOfSeveralColumnsTakesACellForEach() {
        var screen = BoardScreen(width: 10, height: 1)
        #expect(screen.put("हिन्दी 0", row: 0, column: 0) == 7)
        #expect(screen.rows[0].map(\.text) == ["हि", "", "न्दी", "", "", " ", "0", " ", " ", " "])
        #expect(screen.lines == ["हिन्दी 0"])
        screen.put("x", row: 0, column: 3)
        #expect(screen.lines == ["हि x  0"], "overwriting part of a cluster blanks the rest of it")
    }
}

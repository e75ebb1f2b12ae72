/// How many terminal columns text takes, counted per grapheme the way terminals (tmux, and glibc's `wcwidth` that
/// curses goes by) draw it: East Asian wide and fullwidth characters and emoji take two columns; combining marks,
/// format characters (a zero-width space or joiner) and controls none; everything else one, spacing vowel signs
/// too (Devanagari "कि" takes two columns, Thai "น้ำ" two). An emoji sequence drawn as one picture (a family joined
/// by zero-width joiners, a flag, a skin tone, an emoji with its emoji selector U+FE0F, a keycap) takes two.
///
/// A table rather than `wcwidth`, because `wcwidth` answers by the process's locale (in the C locale it
/// refuses every non-ASCII character), which would make the pure layout depend on global state. The table
/// holds the East Asian Wide and Fullwidth blocks of Unicode's `EastAsianWidth.txt` that hold letters
/// (Hangul, CJK, kana, fullwidth forms); emoji are recognised by the standard library's
/// `isEmojiPresentation` property, so they need no table.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes: 0, 1 or 2 for most, the sum of its letters' columns
    /// for a cluster of several spacing letters (a consonant with its vowel sign).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1, isEmojiSequence(scalars, first: first) { return 2 }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one code point takes on its own, as `wcwidth` counts it: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        // The soft hyphen is a format character that terminals show as a hyphen.
        if value == 0xAD { return 1 }
        // Hangul medial vowels and final consonants join the initial consonant before them.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// Whether a cluster of several code points is an emoji sequence a terminal draws as one two-column picture:
    /// one with a zero-width joiner between emoji, a pair of regional indicators (a flag), a skin-tone modifier,
    /// the emoji selector U+FE0F after an emoji, or a keycap.
    static func isEmojiSequence(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Bool {
        if (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        guard first.properties.isEmoji else { return false }
        return scalars.dropFirst().contains { scalar in
            scalar.value == 0xFE0F || scalar.value == 0x20E3 || scalar.value == 0x200D
                || scalar.properties.isEmojiModifier
        }
    }

    /// The East Asian Wide (W) and Fullwidth (F) ranges that hold letters and symbols.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK unified ideographs extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x1B000...0x1B2FF,  // kana supplement and extensions
        0x20000...0x2FFFD,  // CJK extensions B to F
        0x30000...0x3FFFD,  // CJK extension G and later
    ]

    /// `text` cut to at most `columns` columns (a wide character that would straddle the edge is left out).
    public static func prefix(_ text: some StringProtocol, columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns { break }
            result.append(character)
            used += width
        }
        return result
    }

    /// `text` cut to `columns` columns, ending in "…" when it was cut.
    public static func truncated(_ text: some StringProtocol, columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return String(text) }
        return prefix(text, columns: columns - 1) + "…"
    }

    /// `text` broken into lines of at most `columns` columns: at each of its own line breaks (LF, CRLF or CR; blank
    /// lines are left out), and within a line at spaces (or tabs) where it can.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        return text.split(whereSeparator: \.isNewline).flatMap { wrapLine($0, columns: columns) }
    }

    /// One line of text (no line breaks) broken into lines of at most `columns` columns, at spaces where it can.
    private static func wrapLine(_ text: Substring, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var word = String(word)
            let candidate = line.isEmpty ? word : line + " " + word
            if of(candidate) <= columns {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while of(word) > columns {
                let head = prefix(word, columns: columns)
                guard !head.isEmpty else { return lines }
                lines.append(head)
                word = String(word.dropFirst(head.count))
            }
            line = word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

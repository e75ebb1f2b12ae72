import Foundation
import Synchronization

/// A 5 × 5 block font for the big letters, drawn with the half-block characters `▀ ▄ █` so that one
/// terminal row holds two rows of pixels and the pixels come out square. Every terminal emulator's fonts
/// have them; most Linux console fonts have only the full block `█` (``Characters/fullBlocksOnly``), which
/// draws the scales whose pixels are whole terminal rows (an even vertical scale).
///
/// Scales `x`, `y` draw each pixel `x` columns wide and `y` half rows high: a letter is `5x` columns wide
/// and `⌈5y/2⌉` rows high (`x = y` gives square pixels; the layout stretches letters taller when it has rows).
/// Letters outside A–Z, 0–9 draw their base letter when they have one (`Ế` draws `E`, and the layout
/// shows the letter itself above it); others (Greek, CJK, emoji) draw a frame with the letter inside.
public enum BlockFont {
    /// Pixels across and down one glyph.
    public static let size = 5

    /// The block characters a terminal shows, which decide the scales the letters can be drawn at.
    public enum Characters: Sendable, Equatable {
        /// `▀ ▄ █`: every scale.
        case halfBlocks
        /// `█` only: even vertical scales, where each pixel row fills whole terminal rows.
        case fullBlocksOnly

        /// What a terminal of type `term` shows: the Linux console (`linux`, `linux-16color`, …), whose fonts lack
        /// the half blocks but for three of `console-setup`'s (`Uni2-VGA8`, `-VGA14`, `-VGA28x16`), shows full
        /// blocks only; every other terminal both.
        public init(term: String?) {
            let isLinuxConsole = term == "linux" || term?.hasPrefix("linux-") == true
            self = isLinuxConsole ? .fullBlocksOnly : .halfBlocks
        }

        /// Whether a glyph at vertical scale `scaleY` can be drawn with these characters.
        public func draws(scaleY: Int) -> Bool {
            self == .halfBlocks || scaleY.isMultiple(of: 2)
        }
    }

    /// Columns of a glyph at horizontal scale `scale`.
    public static func glyphWidth(scale: Int) -> Int { size * scale }

    /// Rows of a glyph at vertical scale `scale` (two pixel rows a terminal row).
    public static func glyphHeight(scale: Int) -> Int { (size * scale + 1) / 2 }

    /// The glyph's pixels for `character`, or `nil` when the font has none (the layout frames it instead).
    public static func pixels(for character: String) -> [[Bool]]? {
        let key = baseLetter(of: character)
        guard let rows = glyphs[key] else { return nil }
        return rows.map { $0.map { $0 == "#" } }
    }

    /// Whether the font draws `character` as some other letter (its base letter without marks).
    public static func needsLabel(_ character: String) -> Bool {
        pixels(for: character) != nil && character.uppercased() != baseLetter(of: character)
    }

    /// Glyphs drawn so far, by character and scale: the board draws the same letters every second, and drawing
    /// one (its base letter through Foundation's decomposition, then each pixel) was a quarter of the board's CPU
    /// with a round open. Emptied when full, so answers from the daemon cannot grow it without bound.
    private static let drawnGlyphs = Mutex<[GlyphKey: [String]]>([:])
    private static let drawnGlyphsLimit = 512

    private struct GlyphKey: Hashable {
        var character: String
        var scaleX: Int
        var scaleY: Int
    }

    /// Base letters found so far (each through Foundation's decomposition), emptied when full.
    private static let baseLetters = Mutex<[String: String]>([:])

    /// `Ế` → `E`, `ß` stays `ß`: the upper-case letter without its combining marks.
    static func baseLetter(of character: String) -> String {
        if let known = baseLetters.withLock({ $0[character] }) { return known }
        let base = decomposedBaseLetter(of: character)
        baseLetters.withLock { letters in
            if letters.count >= drawnGlyphsLimit { letters.removeAll(keepingCapacity: true) }
            letters[character] = base
        }
        return base
    }

    private static func decomposedBaseLetter(of character: String) -> String {
        let upper = character.uppercased()
        let base = upper.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark
        }
        return String(String.UnicodeScalarView(base))
    }

    /// `character` drawn `scaleX` times as wide and `scaleY` times as high as the font's pixels (taller
    /// than wide where the screen has rows to spare): `glyphWidth(scaleX)` × `glyphHeight(scaleY)` lines.
    public static func render(_ character: String, scaleX: Int, scaleY: Int) -> [String] {
        let key = GlyphKey(character: character, scaleX: scaleX, scaleY: scaleY)
        if let drawn = drawnGlyphs.withLock({ $0[key] }) { return drawn }
        let lines = draw(character, scaleX: scaleX, scaleY: scaleY)
        drawnGlyphs.withLock { glyphs in
            if glyphs.count >= drawnGlyphsLimit { glyphs.removeAll(keepingCapacity: true) }
            glyphs[key] = lines
        }
        return lines
    }

    private static func draw(_ character: String, scaleX: Int, scaleY: Int) -> [String] {
        let width = glyphWidth(scale: scaleX)
        let height = glyphHeight(scale: scaleY)
        guard let pixels = pixels(for: character) else { return frame(character, width: width, height: height) }
        var lines: [String] = []
        for row in 0..<height {
            var line = ""
            for column in 0..<width {
                let x = column / scaleX
                let top = pixel(pixels, x: x, y: (2 * row) / scaleY)
                let bottom = pixel(pixels, x: x, y: (2 * row + 1) / scaleY)
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            lines.append(line)
        }
        return lines
    }

    private static func pixel(_ pixels: [[Bool]], x: Int, y: Int) -> Bool {
        y < pixels.count && x < pixels[y].count && pixels[y][x]
    }

    /// A frame the glyph's size with `character` in the middle, for letters the font has no glyph for.
    static func frame(_ character: String, width: Int, height: Int) -> [String] {
        let inner = max(0, width - 2)
        let letter = DisplayWidth.truncated(character, columns: inner)
        let letterWidth = DisplayWidth.of(letter)
        let left = (inner - letterWidth) / 2
        let middle =
            "│" + String(repeating: " ", count: left) + letter
            + String(repeating: " ", count: inner - left - letterWidth) + "│"
        let empty = "│" + String(repeating: " ", count: inner) + "│"
        var lines = ["┌" + String(repeating: "─", count: inner) + "┐"]
        let body = max(1, height - 2)
        for index in 0..<body { lines.append(index == (body - 1) / 2 ? middle : empty) }
        lines.append("└" + String(repeating: "─", count: inner) + "┘")
        return lines
    }

    private static let glyphs: [String: [String]] = [
        "A": [".###.", "#...#", "#####", "#...#", "#...#"],
        "B": ["####.", "#...#", "####.", "#...#", "####."],
        "C": [".####", "#....", "#....", "#....", ".####"],
        "D": ["####.", "#...#", "#...#", "#...#", "####."],
        "E": ["#####", "#....", "####.", "#....", "#####"],
        "F": ["#####", "#....", "####.", "#....", "#...."],
        "G": [".####", "#....", "#..##", "#...#", ".###."],
        "H": ["#...#", "#...#", "#####", "#...#", "#...#"],
        "I": ["#####", "..#..", "..#..", "..#..", "#####"],
        "J": ["..###", "...#.", "...#.", "#..#.", ".##.."],
        "K": ["#...#", "#..#.", "###..", "#..#.", "#...#"],
        "L": ["#....", "#....", "#....", "#....", "#####"],
        "M": ["#...#", "##.##", "#.#.#", "#...#", "#...#"],
        "N": ["#...#", "##..#", "#.#.#", "#..##", "#...#"],
        "O": [".###.", "#...#", "#...#", "#...#", ".###."],
        "P": ["####.", "#...#", "####.", "#....", "#...."],
        "Q": [".###.", "#...#", "#.#.#", "#..#.", ".##.#"],
        "R": ["####.", "#...#", "####.", "#..#.", "#...#"],
        "S": [".####", "#....", ".###.", "....#", "####."],
        "T": ["#####", "..#..", "..#..", "..#..", "..#.."],
        "U": ["#...#", "#...#", "#...#", "#...#", ".###."],
        "V": ["#...#", "#...#", "#...#", ".#.#.", "..#.."],
        "W": ["#...#", "#...#", "#.#.#", "##.##", "#...#"],
        "X": ["#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
        "Y": ["#...#", ".#.#.", "..#..", "..#..", "..#.."],
        "Z": ["#####", "...#.", "..#..", ".#...", "#####"],
        "0": [".###.", "#..##", "#.#.#", "##..#", ".###."],
        "1": ["..#..", ".##..", "..#..", "..#..", ".###."],
        "2": ["####.", "....#", ".###.", "#....", "#####"],
        "3": ["####.", "....#", ".###.", "....#", "####."],
        "4": ["#...#", "#...#", "#####", "....#", "....#"],
        "5": ["#####", "#....", "####.", "....#", "####."],
        "6": [".###.", "#....", "####.", "#...#", ".###."],
        "7": ["#####", "....#", "...#.", "..#..", "..#.."],
        "8": [".###.", "#...#", ".###.", "#...#", ".###."],
        "9": [".###.", "#...#", ".####", "....#", ".###."],
        "-": [".....", ".....", "#####", ".....", "....."],
        "'": ["..#..", "..#..", ".....", ".....", "....."],
        ".": [".....", ".....", ".....", ".....", "..#.."],
        "!": ["..#..", "..#..", "..#..", ".....", "..#.."],
        "?": [".###.", "....#", "..##.", ".....", "..#.."],
        "&": [".##..", "#..#.", ".##.#", "#..#.", ".##.#"],
    ]
}

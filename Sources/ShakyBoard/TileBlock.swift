/// The scrambled answer (or any word) drawn as big letters, as large as fits: block letters at the
/// largest scale whose lines fit the space, else normal letters.
///
/// Words stay whole on a line where they can, with wide gaps between them. Under each letter a mark row
/// says what colour may also say: `═══` under a letter a hint fixed, `▲▲▲` under the one that just moved
/// into place. Letters the font draws as their base letter (`Ế` as `E`) show the letter itself above.
public struct TileBlock: Sendable {
    /// The tiles to draw.
    public var tiles: [BoardState.Tile]
    /// Tiles to highlight (they just moved into place).
    public var highlighted: Set<Int>
    /// Whether to draw the mark row under the letters.
    public var marksFixed: Bool
    /// Columns beyond the width given that tightly spaced normal letters may take (the board's margin): a word of 20
    /// letters takes 39 columns, one more than the 38 inside a 40-column board's margins.
    public var spareColumns = 0

    /// Creates a block for `tiles`.
    public init(tiles: [BoardState.Tile], highlighted: Set<Int> = [], marksFixed: Bool = true) {
        self.tiles = tiles
        self.highlighted = highlighted
        self.marksFixed = marksFixed
    }

    /// The tiles of `text` as plain letters (for the revealed answer and titles).
    public static func letters(_ text: String) -> [BoardState.Tile] {
        text.map { BoardState.Tile(text: String($0), isLetter: $0 != " ") }
    }

    /// The largest scale that fits, from `maxScale` down, drawn with `characters`; normal letters when no scale
    /// fits.
    public func render(
        width: Int, height: Int, maxScale: Int = 6, characters: BlockFont.Characters = .halfBlocks
    ) -> BoardScreen {
        for scaleX in stride(from: max(1, maxScale), through: 1, by: -1) {
            for scaleY in [2 * scaleX, scaleX] where characters.draws(scaleY: scaleY) {
                if let screen = renderBig(scaleX: scaleX, scaleY: scaleY, width: width, height: height) {
                    return screen
                }
            }
        }
        return renderSmall(width: width, height: height)
    }

    private var words: [[Int]] {
        var words: [[Int]] = []
        var current: [Int] = []
        for (index, tile) in tiles.enumerated() {
            if !tile.isLetter && tile.text.allSatisfy({ $0 == " " }) {
                if !current.isEmpty { words.append(current) }
                current = []
            } else {
                current.append(index)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Greedy lines of words, each at most `width` columns given per-tile and gap widths; `nil` when a word
    /// does not fit a line.
    private func lines(tileWidth: (Int) -> Int, gap: Int, wordGap: Int, width: Int) -> [[[Int]]]? {
        var lines: [[[Int]]] = []
        var line: [[Int]] = []
        var used = 0
        for word in words {
            let wordWidth = word.map(tileWidth).reduce(0, +) + gap * max(0, word.count - 1)
            if wordWidth > width { return nil }
            let extra = line.isEmpty ? wordWidth : wordGap + wordWidth
            if used + extra > width, !line.isEmpty {
                lines.append(line)
                line = [word]
                used = wordWidth
            } else {
                line.append(word)
                used += extra
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func lineWidth(_ line: [[Int]], tileWidth: (Int) -> Int, gap: Int, wordGap: Int) -> Int {
        let words = line.map { $0.map(tileWidth).reduce(0, +) + gap * max(0, $0.count - 1) }
        return words.reduce(0, +) + wordGap * max(0, line.count - 1)
    }

    private func style(of index: Int) -> BoardScreen.Style {
        if highlighted.contains(index) { return .highlight }
        return tiles[index].isFixed ? .fixed : .strong
    }

    private func mark(of index: Int, width: Int) -> String {
        guard marksFixed else { return "" }
        if highlighted.contains(index) { return String(repeating: "▲", count: width) }
        return tiles[index].isFixed ? String(repeating: "═", count: width) : ""
    }

    private func renderBig(scaleX: Int, scaleY: Int, width: Int, height: Int) -> BoardScreen? {
        let glyphWidth = BlockFont.glyphWidth(scale: scaleX)
        let glyphHeight = BlockFont.glyphHeight(scale: scaleY)
        let gap = scaleX
        let wordGap = 3 * scaleX
        let labelled = tiles.contains { BlockFont.needsLabel($0.text) }
        let lineHeight = (labelled ? 1 : 0) + glyphHeight + (marksFixed ? 1 : 0)
        guard let lines = lines(tileWidth: { _ in glyphWidth }, gap: gap, wordGap: wordGap, width: width),
            !lines.isEmpty
        else { return nil }
        let totalHeight = lines.count * lineHeight + (lines.count - 1)
        guard totalHeight <= height else { return nil }
        let widest = lines.map { lineWidth($0, tileWidth: { _ in glyphWidth }, gap: gap, wordGap: wordGap) }.max() ?? 0
        var screen = BoardScreen(width: widest, height: totalHeight)
        for (lineIndex, line) in lines.enumerated() {
            let top = lineIndex * (lineHeight + 1)
            var x = (widest - lineWidth(line, tileWidth: { _ in glyphWidth }, gap: gap, wordGap: wordGap)) / 2
            for word in line {
                for index in word {
                    let text = tiles[index].text
                    let glyphTop = top + (labelled ? 1 : 0)
                    if labelled, BlockFont.needsLabel(text) {
                        screen.center(text, row: top, style: style(of: index), column: x, span: glyphWidth)
                    }
                    for (row, pixels) in BlockFont.render(text, scaleX: scaleX, scaleY: scaleY).enumerated() {
                        screen.put(pixels, row: glyphTop + row, column: x, style: style(of: index))
                    }
                    screen.put(
                        mark(of: index, width: glyphWidth), row: glyphTop + glyphHeight, column: x,
                        style: style(of: index))
                    x += glyphWidth + gap
                }
                x += wordGap - gap
            }
        }
        return screen
    }

    /// The fewest rows the tiles take `width` columns wide: normal letters, without the mark rows. A board that
    /// gives them fewer cuts the scramble short, so it makes room for them first.
    public func minimumHeight(width: Int) -> Int {
        smallLayout(width: width).lines.count
    }

    /// Normal letters laid out in lines: `pitch` columns a tile, and the lines that end inside a word.
    private struct SmallLayout {
        var pitch: Int
        var lines: [[[Int]]]
        var continued: Set<Int> = []

        /// The columns a tile of `text` takes: three (` A `), or tightly its own width and a space (`A `).
        func tileWidth(_ text: String) -> Int {
            pitch == 3 ? 3 : max(1, DisplayWidth.of(text)) + 1
        }
    }

    /// The lines of normal letters, `width` columns at most, every word whole on a line: three columns a tile where
    /// the words fit so, else one space between letters and three between words (before, a 20-letter word at 40
    /// columns broke in two and read as two words). Only a word longer than a whole line even so is broken, where
    /// the line is full, and that line ends in `→`: the room reads one word going on.
    private func smallLayout(width: Int) -> SmallLayout {
        if let lines = lines(tileWidth: { _ in 3 }, gap: 0, wordGap: 2, width: width) {
            return SmallLayout(pitch: 3, lines: lines)
        }
        var layout = SmallLayout(pitch: 2, lines: [])
        let width = width + spareColumns
        let tileWidth = { (index: Int) in layout.tileWidth(self.tiles[index].text) }
        // A tight line ends in its last letter's space, which takes no column of its own.
        if let lines = lines(tileWidth: tileWidth, gap: 0, wordGap: 2, width: width + 1) {
            layout.lines = lines
            return layout
        }
        var line: [[Int]] = []
        var used = 0
        for word in words {
            let wordWidth = word.map(tileWidth).reduce(0, +)
            if !line.isEmpty, used + 2 + wordWidth > width + 1 {
                layout.lines.append(line)
                line = []
                used = 0
            }
            guard wordWidth > width + 1 else {
                used += (line.isEmpty ? 0 : 2) + wordWidth
                line.append(word)
                continue
            }
            // Longer than a line: pieces as long as a line holds with the `→` after them.
            var piece: [Int] = []
            var pieceWidth = 0
            for index in word {
                if !piece.isEmpty, pieceWidth + tileWidth(index) > width {
                    layout.continued.insert(layout.lines.count)
                    layout.lines.append([piece])
                    piece = []
                    pieceWidth = 0
                }
                piece.append(index)
                pieceWidth += tileWidth(index)
            }
            line = [piece]
            used = pieceWidth
        }
        if !line.isEmpty { layout.lines.append(line) }
        return layout
    }

    /// Normal letters, three columns a tile (`[G]` when a hint fixed it) or tightly one space between them (a fixed
    /// letter then marked `═` under it where the mark rows fit, and drawn bold and underlined), words whole on a line
    /// where they can be. The mark rows go first when the lines do not fit with them (a fixed letter keeps its
    /// brackets); lines that do not fit even then are left out, and the last one shown ends in `…`, so that the
    /// room sees the scramble goes on.
    private func renderSmall(width: Int, height: Int) -> BoardScreen {
        let layout = smallLayout(width: width)
        let width = layout.pitch == 3 ? width : width + spareColumns
        let all = layout.lines
        let withMarks = marksFixed && all.count * 2 <= height
        let lineHeight = withMarks ? 2 : 1
        let lines = Array(all.prefix(max(1, height / lineHeight)))
        func lineWidth(_ index: Int) -> Int {
            let tiles = lines[index].joined().map { layout.tileWidth(self.tiles[$0].text) }.reduce(0, +)
            let drawn = tiles + 2 * max(0, lines[index].count - 1)
            // A tight line's last space is no column, unless the line's `→` takes it.
            return layout.pitch == 3 || layout.continued.contains(index) ? drawn : drawn - 1
        }
        let widest = min(width, lines.indices.map(lineWidth).max() ?? 0)
        var screen = BoardScreen(width: widest, height: min(height, lines.count * lineHeight))
        for (lineIndex, line) in lines.enumerated() {
            let top = lineIndex * lineHeight
            var x = (widest - lineWidth(lineIndex)) / 2
            for word in line {
                for index in word {
                    let text = tiles[index].text
                    let tileWidth = layout.tileWidth(text)
                    let fixed = tiles[index].isFixed && marksFixed
                    let letter =
                        layout.pitch == 2 || DisplayWidth.of(text) >= 2
                        ? text : (fixed ? "[" : " ") + text + (fixed ? "]" : " ")
                    screen.put(letter, row: top, column: x, style: style(of: index))
                    if withMarks, highlighted.contains(index) || (layout.pitch == 2 && fixed) {
                        let markWidth = layout.pitch == 3 ? tileWidth : tileWidth - 1
                        screen.put(mark(of: index, width: markWidth), row: top + 1, column: x, style: style(of: index))
                    }
                    x += tileWidth
                }
                x += 2
            }
            if layout.continued.contains(lineIndex) {
                screen.put("→", row: top, column: x - 3, style: .strong)
            }
        }
        if lines.count < all.count, widest >= 1 {
            screen.put("…", row: lines.count * lineHeight - 1, column: widest - 1, style: .strong)
        }
        return screen
    }
}

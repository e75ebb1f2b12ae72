/// What the board draws: a grid of cells, each one character with a style, the size of the terminal.
///
/// A wide character (CJK, emoji) fills its cell and the next, a cluster of several letters ("न्दी") one for each
/// column it takes; the cells after the first hold an empty continuation. Text
/// that does not fit is clipped, never wrapped into the next row.
public struct BoardScreen: Equatable, Sendable {
    /// How a cell is drawn. The terminal edge maps these to colours and attributes; with no colour, the
    /// layout's symbols and marks still tell everything apart.
    public enum Style: Hashable, Sendable {
        /// Ordinary text.
        case normal
        /// Headings and the question.
        case strong
        /// Less important text.
        case dim
        /// A letter a hint fixed in place.
        case fixed
        /// The letter that just moved into place.
        case highlight
        /// A team's colour, by the team's place in the join order (0 to 7, then round again).
        case team(Int)
        /// Good news: a right answer.
        case good
        /// Bad news: a wrong answer, a notice.
        case bad
    }

    /// One cell.
    public struct Cell: Equatable, Sendable {
        /// The character, `""` for the second half of a wide character.
        public var text: String
        /// How it is drawn.
        public var style: Style

        /// A blank cell.
        public static let blank = Cell(text: " ", style: .normal)
    }

    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public internal(set) var rows: [[Cell]]

    /// A blank screen of `width` × `height` (negative sizes count as 0).
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Writes `text` at `row`, `column`, clipped at the right edge (or at `column + limit`), and returns the
    /// columns it took.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: Style = .normal, limit: Int? = nil) -> Int {
        guard row >= 0, row < height else { return 0 }
        let end = min(width, limit.map { column + max(0, $0) } ?? width)
        var x = column
        for character in text {
            let cellWidth = DisplayWidth.of(character)
            if cellWidth == 0 { continue }
            if x + cellWidth > end { break }
            if x >= 0 {
                for covered in x..<(x + cellWidth) { clearWide(row: row, column: covered) }
                rows[row][x] = Cell(text: String(character), style: style)
                for covered in (x + 1)..<(x + cellWidth) { rows[row][covered] = Cell(text: "", style: style) }
            }
            x += cellWidth
        }
        return max(0, x - column)
    }

    /// Writes `text` centred on `row` within `column..<column+span` (the whole row by default).
    @discardableResult
    public mutating func center(
        _ text: String, row: Int, style: Style = .normal, column: Int = 0, span: Int? = nil
    )
        -> Int
    {
        let span = span ?? width
        let cut = DisplayWidth.truncated(text, columns: span)
        let left = column + max(0, (span - DisplayWidth.of(cut)) / 2)
        put(cut, row: row, column: left, style: style)
        return left
    }

    /// Overwriting part of a wide character (two columns, or more for a cluster of several letters: "न्दी") blanks
    /// the rest of it, so no cell is left partly drawn.
    private mutating func clearWide(row: Int, column: Int) {
        guard column >= 0, column < width else { return }
        var start = column
        while start > 0, rows[row][start].text.isEmpty { start -= 1 }
        guard rows[row][start].text.isEmpty || DisplayWidth.of(rows[row][start].text) > 1 else { return }
        var end = start + 1
        while end < width, rows[row][end].text.isEmpty { end += 1 }
        for blank in start..<end { rows[row][blank] = .blank }
    }

    /// The screen as text, one line per row, trailing spaces removed.
    public var text: String {
        lines.joined(separator: "\n")
    }

    /// The rows as text, trailing spaces removed.
    public var lines: [String] {
        rows.map { row in
            var line = row.map(\.text).joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Runs of cells with one style on `row`: where each starts, its text, its style.
    public func runs(row: Int) -> [(column: Int, text: String, style: Style)] {
        guard row >= 0, row < height else { return [] }
        var runs: [(column: Int, text: String, style: Style)] = []
        for (column, cell) in rows[row].enumerated() {
            if let last = runs.last, last.style == cell.style {
                runs[runs.count - 1].text += cell.text
            } else {
                runs.append((column, cell.text, cell.style))
            }
        }
        return runs
    }
}

extension BoardScreen {
    /// Copies `other` onto this screen with its top left corner at `row`, `column`; what falls outside is cut.
    public mutating func blit(_ other: BoardScreen, row: Int, column: Int) {
        for (y, cells) in other.rows.enumerated() {
            let targetRow = row + y
            guard targetRow >= 0, targetRow < height else { continue }
            for (x, cell) in cells.enumerated() {
                let targetColumn = column + x
                guard targetColumn >= 0, targetColumn < width else { continue }
                rows[targetRow][targetColumn] = cell
            }
        }
    }
}

/// A table of text with aligned columns, for scoreboards and lists.
struct TextTable: Sendable {
    /// Which side of its column a value keeps to.
    enum Alignment: Sendable {
        case left, right
    }

    /// A column: its title, alignment, and how narrow it may be cut when the table must fit a width.
    struct Column: Sendable {
        var title: String
        var alignment: Alignment
        /// The fewest terminal columns its values are cut to (never below its title's width), or `nil` for a
        /// column that is never cut (numbers, times).
        var narrowest: Int?

        init(_ title: String, _ alignment: Alignment = .left, narrowest: Int? = nil) {
            self.title = title
            self.alignment = alignment
            self.narrowest = narrowest
        }
    }

    var columns: [Column]
    var rows: [[String]] = []

    /// The table with a title line, columns two spaces apart and no trailing spaces. Columns line up on
    /// a terminal by display width: CJK characters and emoji take two columns, combining marks none.
    ///
    /// Given a `width` (a terminal's), a table wider than it is fitted to it: the columns that may be cut lose
    /// their widest part first, down to their narrowest, and a value cut short ends in "…". Without one, every
    /// value is whole.
    func render(indent: String = "", width: Int? = nil) -> String {
        var widths = columns.indices.map { index in
            ([columns[index].title] + rows.map { index < $0.count ? $0[index] : "" }).map(\.displayWidth).max() ?? 0
        }
        if let width { fit(&widths, to: width - indent.displayWidth) }
        let lines = ([columns.map(\.title)] + rows).map { row in
            let cells = columns.indices.map { index in
                let value = (index < row.count ? row[index] : "").cut(toWidth: widths[index])
                let padding = String(repeating: " ", count: max(0, widths[index] - value.displayWidth))
                return columns[index].alignment == .left ? value + padding : padding + value
            }
            return indent + String(cells.joined(separator: "  ").trimmingTrailingSpaces())
        }
        return lines.joined(separator: "\n")
    }

    /// Narrows the columns that may be cut until `widths` and the spaces between them fit in `width`, the widest
    /// first, none below its narrowest; a table that cannot fit keeps those.
    private func fit(_ widths: inout [Int], to width: Int) {
        let floors = columns.indices.map { index in
            columns[index].narrowest.map { min(widths[index], max($0, columns[index].title.displayWidth)) }
                ?? widths[index]
        }
        var excess = widths.reduce(2 * max(0, columns.count - 1), +) - width
        while excess > 0 {
            let shrinkable = columns.indices.filter { widths[$0] > floors[$0] }
            guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { return }
            // Down to the next widest (or its floor) in one step, so a long column costs no more than a short one.
            let others = shrinkable.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
            let step = min(excess, widths[widest] - max(floors[widest], min(others, widths[widest] - 1)))
            widths[widest] -= step
            excess -= step
        }
    }
}

extension String {
    /// How many terminal columns the string takes, as `wcwidth(3)` counts them per character: two for
    /// East Asian wide and full-width characters and for emoji, one for others; marks add nothing.
    var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }

    /// The string cut to at most `width` terminal columns, ending in "…" when it was cut.
    func cut(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        var result = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return width > 0 ? result + "…" : ""
    }

    /// The string without spaces at its end.
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[..<end]
    }
}

extension Character {
    /// The terminal columns this character (a grapheme cluster) takes: 2 if it is wide, else 1.
    var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
            || unicodeScalars.contains(where: { $0.value == 0xFE0F })
        {
            return 2
        }
        return Self.isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F), the ones text uses.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}

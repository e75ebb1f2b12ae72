import ShakyBoard

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
    /// How many terminal columns the string takes: ``DisplayWidth`` counts them, as the board does.
    var displayWidth: Int {
        DisplayWidth.of(self)
    }

    /// The string cut to at most `width` terminal columns, ending in "…" when it was cut.
    func cut(toWidth width: Int) -> String {
        DisplayWidth.truncated(self, columns: width)
    }

    /// The string without spaces at its end.
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[..<end]
    }
}

/// A table of text with aligned columns, for scoreboards and lists.
struct TextTable: Sendable {
    /// Which side of its column a value keeps to.
    enum Alignment: Sendable {
        case left, right
    }

    /// A column: its title and alignment.
    struct Column: Sendable {
        var title: String
        var alignment: Alignment

        init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    var columns: [Column]
    var rows: [[String]] = []

    /// The table with a title line, columns two spaces apart and no trailing spaces.
    func render(indent: String = "") -> String {
        let widths = columns.indices.map { index in
            ([columns[index].title] + rows.map { index < $0.count ? $0[index] : "" }).map(\.count).max() ?? 0
        }
        let lines = ([columns.map(\.title)] + rows).map { row in
            let cells = columns.indices.map { index in
                let value = index < row.count ? row[index] : ""
                let padding = String(repeating: " ", count: widths[index] - value.count)
                return columns[index].alignment == .left ? value + padding : padding + value
            }
            return indent + String(cells.joined(separator: "  ").trimmingTrailingSpaces())
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string without spaces at its end.
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[..<end]
    }
}

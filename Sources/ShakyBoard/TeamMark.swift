/// How the board tells teams apart: a colour from the Okabe–Ito palette (eight colours that people with
/// the common forms of colour blindness can still tell apart) and a symbol, so that colour is never the
/// only cue (on a monochrome screen, with `NO_COLOR`, or for anyone who cannot see the difference).
///
/// The symbols are in every Lat15 and Uni2 font of the Linux console (console-setup's, which the README recommends
/// for a TV), each with a glyph of its own, and none is another of the board's marks (▶ ◀ for the team asked to
/// press, ▲ under a letter a hint moved). Terminus draws ● as a bullet and ▲ ▼ as arrows; ♥ ♣ ♠ ♪ are in none of
/// those fonts, which draw a character they lack as ♦, the fourth team's mark.
public struct TeamMark: Equatable, Sendable {
    /// The team's place in the join order, 0 to 7 (the ninth team takes the first mark again).
    public var index: Int

    /// The mark of the team at `index` in the join order.
    public init(index: Int) {
        self.index = ((index % Self.count) + Self.count) % Self.count
    }

    /// How many distinct marks there are.
    public static let count = 8

    /// The team's symbol.
    public var symbol: String { Self.symbols[index] }

    /// The colour's name, for people.
    public var colourName: String { Self.palette[index].name }

    /// The nearest of the 256 xterm colours.
    public var xterm256: Int16 { Self.palette[index].xterm256 }

    /// The nearest of the 8 basic colours (`COLOR_RED` is 1 … `COLOR_WHITE` is 7), for the Linux console.
    public var basic: Int16 { Self.palette[index].basic }

    /// The colour as red, green, blue from 0 to 1000 (ncurses' `init_color` scale).
    public var rgb1000: (red: Int16, green: Int16, blue: Int16) {
        let colour = Self.palette[index]
        return (colour.red * 1000 / 255, colour.green * 1000 / 255, colour.blue * 1000 / 255)
    }

    private static let symbols = ["●", "■", "▲", "♦", "▼", "¤", "§", "¶"]

    private struct Colour {
        var name: String
        var red: Int16
        var green: Int16
        var blue: Int16
        var xterm256: Int16
        var basic: Int16
    }

    // Okabe & Ito, "Color Universal Design" (2008); black is swapped for grey so it shows on a dark screen.
    private static let palette = [
        Colour(name: "orange", red: 230, green: 159, blue: 0, xterm256: 214, basic: 3),
        Colour(name: "sky blue", red: 86, green: 180, blue: 233, xterm256: 74, basic: 6),
        Colour(name: "bluish green", red: 0, green: 158, blue: 115, xterm256: 36, basic: 2),
        Colour(name: "yellow", red: 240, green: 228, blue: 66, xterm256: 227, basic: 3),
        Colour(name: "blue", red: 0, green: 114, blue: 178, xterm256: 25, basic: 4),
        Colour(name: "vermillion", red: 213, green: 94, blue: 0, xterm256: 166, basic: 1),
        Colour(name: "reddish purple", red: 204, green: 121, blue: 167, xterm256: 175, basic: 5),
        Colour(name: "grey", red: 187, green: 187, blue: 187, xterm256: 250, basic: 7),
    ]
}

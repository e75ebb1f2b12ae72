import CNcurses
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The board's full screen on a terminal through ncursesw: the one owner of the curses screen, drawing
/// ``BoardScreen``s in place (curses sends only what changed) and reading keys.
///
/// Curses is not thread-safe: create, draw, read and close on one thread. It works on the Linux console
/// (8 colours), in terminal emulators (256 colours) and over SSH; ncurses handles `SIGWINCH` itself and
/// reports a resize as a key.
final class CursesTerminal {
    /// What a key press means to the board.
    enum Key: Equatable {
        /// `q`, `Q`, Ctrl-C or Escape.
        case quit
        /// The terminal changed size.
        case resize
        /// Anything else.
        case other
    }

    private let window: UnsafeMutablePointer<WINDOW>
    private let usesColour: Bool
    private var attributes: [BoardScreen.Style: attr_t] = [:]

    /// Takes over the terminal. `colour` is `false` with `NO_COLOR`, and on terminals without colours.
    init(colour: Bool) throws(BoardError) {
        CursesTerminal.chooseUTF8Locale()
        guard let window = initscr() else { throw BoardError.terminal("cannot start curses on this terminal") }
        self.window = window
        raw()
        noecho()
        keypad(window, true)
        curs_set(0)
        usesColour = colour && has_colors()
        if usesColour {
            start_color()
            use_default_colors()
            let many = CNcurses_colors() >= 256
            for index in 0..<TeamMark.count {
                let mark = TeamMark(index: index)
                init_pair(Int16(1 + index), many ? mark.xterm256 : mark.basic, -1)
            }
            init_pair(9, Int16(COLOR_GREEN), -1)
            init_pair(10, Int16(COLOR_RED), -1)
        }
    }

    /// ncursesw draws multibyte text only in a UTF-8 locale; a console started by systemd may have none.
    private static func chooseUTF8Locale() {
        setlocale(LC_ALL, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// The terminal's size now.
    var size: (width: Int, height: Int) {
        (Int(CNcurses_columns(window)), Int(CNcurses_rows(window)))
    }

    /// Draws `screen` in place of what is on the terminal.
    func draw(_ screen: BoardScreen) {
        werase(window)
        for row in 0..<screen.height {
            for run in screen.runs(row: row) {
                _ = CNcurses_set_attributes(window, attribute(for: run.style))
                _ = mvwaddstr(window, Int32(row), Int32(run.column), run.text)
            }
        }
        _ = CNcurses_set_attributes(window, CNcurses_normal())
        wrefresh(window)
    }

    /// Waits up to `milliseconds` for a key; `nil` when none came.
    func readKey(waitingAtMost milliseconds: Int32) -> Key? {
        wtimeout(window, milliseconds)
        let key = wgetch(window)
        switch key {
        case CNcurses_err(): return nil
        case CNcurses_key_resize(): return .resize
        case 3, 27, Int32(UInt8(ascii: "q")), Int32(UInt8(ascii: "Q")): return .quit
        default: return .other
        }
    }

    /// Gives the terminal back as it was.
    func close() {
        endwin()
    }

    private func attribute(for style: BoardScreen.Style) -> attr_t {
        if let known = attributes[style] { return known }
        let value: attr_t
        switch style {
        case .normal: value = CNcurses_normal()
        case .strong: value = CNcurses_bold()
        case .dim: value = usesColour ? CNcurses_dim() : CNcurses_normal()
        case .fixed: value = CNcurses_bold() | CNcurses_underline()
        case .highlight: value = CNcurses_bold() | CNcurses_reverse()
        case .team(let index):
            value = usesColour ? CNcurses_color_pair(Int16(1 + TeamMark(index: index).index)) : CNcurses_normal()
        case .good: value = CNcurses_bold() | (usesColour ? CNcurses_color_pair(9) : CNcurses_normal())
        case .bad: value = CNcurses_bold() | (usesColour ? CNcurses_color_pair(10) : CNcurses_normal())
        }
        attributes[style] = value
        return value
    }
}

/// Why the board cannot run.
public enum BoardError: Error, CustomStringConvertible {
    /// The terminal cannot be used.
    case terminal(String)

    public var description: String {
        switch self {
        case .terminal(let message): "shaky board: \(message) (try TERM=linux or TERM=xterm-256color)"
        }
    }
}

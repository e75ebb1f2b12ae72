import CNcurses
import Foundation
import ShakyCore

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
        /// `q`, `Q` or Ctrl-C. Not Escape: curses hands on an Alt+key, or a key whose sequence terminfo does not know
        /// (Home in some terminals), as an Escape and what follows, and a stray key on the TV's keyboard must not
        /// end the board.
        case quit
        /// The terminal changed size.
        case resize
        /// Ctrl-L: draw the whole screen again, over whatever else wrote on it (the kernel's messages on a console).
        case repaint
        /// Ctrl-Z: give the terminal back and stop until `fg`. The board reads keys raw, so the terminal sends no
        /// SIGTSTP of its own.
        case suspend
        /// Anything else.
        case other
    }

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    /// Curses' own streams on duplicates of standard output and input, closed with the screen.
    private let streams: (output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>)
    private let usesColour: Bool
    private var attributes: [BoardScreen.Style: attr_t] = [:]
    /// The terminal description the board is drawn with.
    let terminalName: String

    /// The terminal descriptions to try, in order: `term` (the terminal's own, `TERM`), then ones every terminfo
    /// database has, which terminal emulators and the Linux console understand well enough: a newer terminal's
    /// name (`xterm-ghostty` over SSH to a Pi) is often unknown to an older system.
    static func terminalNames(term: String?) -> [String] {
        var names: [String] = []
        for name in [term ?? "", "xterm-256color", "xterm", "vt100"] where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// Takes over the terminal, described by the first of ``terminalNames(term:)`` that terminfo knows. `colour` is
    /// `false` with `NO_COLOR`, and on terminals without colours.
    init(colour: Bool, term: String?) throws(BoardError) {
        CursesTerminal.chooseUTF8Locale()
        // newterm, unlike initscr, returns when terminfo does not know the terminal (initscr prints and exits).
        let names = Self.terminalNames(term: term)
        guard let output = fdopen(dup(STDOUT_FILENO), "w") else {
            throw BoardError.terminal("cannot write to the terminal: \(String(cString: strerror(errno)))")
        }
        guard let input = fdopen(dup(STDIN_FILENO), "r") else {
            fclose(output)
            throw BoardError.terminal("cannot read the terminal: \(String(cString: strerror(errno)))")
        }
        // Each name is tried once, in a plain loop: a lazy `compactMap(…).first` runs its closure again for the element
        // it returns, and a second `newterm` would take the first one's raw, no-echo settings as the shell's own,
        // which `endwin` then "restores" on leaving, so the shell was left without echo.
        var opened: (name: String, screen: OpaquePointer)?
        for name in names {
            if let screen = newterm(name, output, input) {
                opened = (name, screen)
                break
            }
        }
        guard let (name, screen) = opened else {
            fclose(output)
            fclose(input)
            let tried = names.spokenList("or")
            throw BoardError.terminal("terminfo here knows none of the terminal types \(tried)")
        }
        // A window of the board's own, the whole screen (curses resizes it with the screen): `stdscr` is a global
        // variable, which Swift's concurrency checking does not let this code read.
        guard let window = newwin(0, 0, 0, 0) else {
            endwin()
            delscreen(screen)
            fclose(output)
            fclose(input)
            throw BoardError.terminal("curses cannot make a window of the screen's size")
        }
        self.screen = screen
        self.window = window
        streams = (output, input)
        terminalName = name
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
        let screen = Self.measuredAlike(screen)
        for row in 0..<screen.height {
            for run in screen.runs(row: row) {
                _ = CNcurses_set_attributes(window, attribute(for: run.style))
                _ = mvwaddstr(window, Int32(row), Int32(run.column), run.text)
            }
        }
        _ = CNcurses_set_attributes(window, CNcurses_normal())
        wrefresh(window)
    }

    /// `screen` with each character that curses would give other columns than the board gave it drawn as one that
    /// takes the same: curses counts each code point apart (by `wcwidth`), so an emoji sequence a terminal draws as
    /// one picture, "👨‍👩‍👧‍👦" or "👍🏽", took eight or four columns in curses' count and pushed the rest of its row
    /// out of place. Such a character is drawn as its first emoji ("👨", "👍"), padded with a space when that is
    /// narrower ("❤️" as "❤ "), or as U+FFFD when even that does not fit.
    static func measuredAlike(_ screen: BoardScreen) -> BoardScreen {
        var drawn = screen
        for (row, cells) in screen.rows.enumerated() {
            // Blanks and ASCII, most of a screen, take one column in both counts.
            for (column, cell) in cells.enumerated() where cell.text.utf8.count > 1 {
                let columns = DisplayWidth.of(cell.text)
                let counted = cursesWidth(cell.text.unicodeScalars)
                guard counted != columns else { continue }
                drawn.rows[row][column].text = stand(in: cell.text, columns: columns)
            }
        }
        return drawn
    }

    /// What curses draws in place of `text`, a character it counts otherwise than the board's `columns`: its first
    /// code point, padded with spaces to `columns`, or U+FFFD padded likewise.
    static func stand(in text: String, columns: Int) -> String {
        var first = text.unicodeScalars.first.map { String($0) } ?? ""
        var counted = cursesWidth(first.unicodeScalars)
        if counted < 1 || counted > columns {
            first = String(TerminalText.replacement)
            counted = 1
        }
        return first + String(repeating: " ", count: max(0, columns - counted))
    }

    /// The columns curses gives `scalars`: the sum of `wcwidth` for each (in the UTF-8 locale the board chose), or
    /// -1 when one of them is not printable there.
    static func cursesWidth(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        var total = 0
        for scalar in scalars {
            let width = CNcurses_wcwidth(wchar_t(bitPattern: scalar.value))
            guard width >= 0 else { return -1 }
            total += Int(width)
        }
        return total
    }

    /// Waits up to `milliseconds` for a key; `nil` when none came.
    func readKey(waitingAtMost milliseconds: Int32) -> Key? {
        wtimeout(window, milliseconds)
        let key = wgetch(window)
        switch key {
        case CNcurses_err(): return nil
        case CNcurses_key_resize(): return .resize
        case 3, Int32(UInt8(ascii: "q")), Int32(UInt8(ascii: "Q")): return .quit
        case 12: return .repaint
        case 26: return .suspend
        default: return .other
        }
    }

    /// Makes the next ``draw(_:)`` send the whole screen, not only what changed since the last: what curses
    /// believes is on the terminal may not be (a console's kernel messages, another program's writes).
    func repaintWhole() {
        clearok(window, true)
    }

    /// Gives the terminal back as it was until `fg`: the shell's modes and its screen. Stops the process with
    /// SIGSTOP, which no thread can block (play's and the pool's threads block SIGTSTP); the next ``draw(_:)``
    /// takes the terminal again, whole.
    func suspend() {
        endwin()
        fflush(streams.output)
        raise(SIGSTOP)
        repaintWhole()
    }

    /// Gives the terminal back as it was.
    func close() {
        delwin(window)
        endwin()
        delscreen(screen)
        fclose(streams.output)
        fclose(streams.input)
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
        case .terminal(let message):
            "the board cannot draw on this terminal: \(message); run `shaky board --plain`, or set TERM to a type "
                + "this system knows (TERM=xterm-256color, or TERM=linux on the console)"
        }
    }
}

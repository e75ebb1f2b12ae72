import Foundation
import ShakyBoard
import ShakyCore

/// The terminal layout of `shaky play`: events scroll in the top of the screen, the countdown keeps the
/// line above the bottom, and the bottom line is the host's prompt, which nothing the game prints ever
/// touches (what the host is typing stays where it is).
///
/// Pure: each method returns the text, escape codes included, to write to the terminal.
struct PlayScreen: Sendable, Equatable {
    /// The terminal's height in lines (at least 4).
    var rows: Int
    /// The terminal's width in columns (at least 10).
    var columns: Int

    /// The prompt shown at the start of the bottom line.
    static let prompt = "> "

    private static let escape = "\u{1B}["

    private func moveTo(row: Int, column: Int = 1) -> String { "\(Self.escape)\(row);\(column)H" }

    /// Sets the scrolling region above the countdown line and shows the prompt.
    var setUp: String {
        Self.escape + "1;\(rows - 2)r" + moveTo(row: rows - 1) + Self.escape + "2K" + moveTo(row: rows)
            + Self.escape + "2K" + Self.prompt
    }

    /// The whole screen laid out again (after a resize, `fg` or Ctrl-L): what it shows scrolled off whole, into the
    /// terminal's scrollback (the terminal may have wrapped the old rows anew, and the shell written there while
    /// play was stopped); the scrolling region set; the last of `events` that fill it, the countdown's line showing
    /// `countdown`, and the prompt.
    func redrawn(events: [String], countdown line: String) -> String {
        var rowsLeft = rows - 2
        var shown: [String] = []
        for text in events.reversed() where rowsLeft > 0 {
            shown.append(text)
            rowsLeft -= text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) {
                $0 + Self.wrapped($1, columns: columns).count
            }
        }
        let scrolledOff = Self.escape + "r" + moveTo(row: rows) + String(repeating: "\n", count: rows)
        return scrolledOff + setUp + shown.reversed().map(event).joined() + countdown(line)
    }

    /// Gives the whole screen back to the shell: the countdown's line and the prompt cleared, which would only show
    /// a countdown stopped, and the cursor below the events.
    var tearDown: String {
        Self.escape + "r" + moveTo(row: rows) + Self.escape + "2K" + moveTo(row: rows - 1) + Self.escape + "2K"
    }

    /// Adds `text` (one or more lines) at the bottom of the scrolling events, the cursor left where it was. A line
    /// wider than the screen is broken between words (``wrapped(_:columns:)``), not where the terminal's edge falls.
    func event(_ text: String) -> String {
        var output = "\u{1B}7" + moveTo(row: rows - 2)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for part in Self.wrapped(line, columns: columns) {
                output += "\n\r" + Self.escape + "2K" + part
            }
        }
        return output + "\u{1B}8"
    }

    /// `line` broken into lines of at most `columns` columns, the lines after the first indented by two spaces so
    /// they read as one event. Two spaces separate the parts of an event (the question, its letters, its worth):
    /// a part that fits on a line of its own is kept whole, so the scrambled letters are never split; a wider part
    /// is broken between its words. Colours and bold (`ESC [ … m`) take no column. A word wider than a line is left
    /// whole, for the terminal to break.
    static func wrapped(_ line: Substring, columns: Int) -> [String] {
        guard visibleWidth(line) > columns, columns > 10 else { return [String(line)] }
        let indent = "  "
        var lines: [String] = []
        var current = ""
        var width = 0
        var atLineStart = true
        func place(_ text: some StringProtocol, after separator: String) {
            current += (atLineStart ? "" : separator) + text
            width += (atLineStart ? 0 : separator.count) + visibleWidth(text)
            atLineStart = false
        }
        func breakLine() {
            lines.append(current)
            current = indent
            width = indent.count
            atLineStart = true
        }
        for (index, part) in line.split(separator: "  ", omittingEmptySubsequences: false).enumerated() {
            let separator = index == 0 ? "" : "  "
            let partWidth = visibleWidth(part)
            if width + separator.count + partWidth <= columns {
                place(part, after: separator)
                continue
            }
            if !atLineStart && indent.count + partWidth <= columns {
                breakLine()
                place(part, after: separator)
                continue
            }
            for (wordIndex, word) in part.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
                let wordSeparator = wordIndex == 0 ? separator : " "
                if atLineStart || width + wordSeparator.count + visibleWidth(word) <= columns {
                    place(word, after: wordSeparator)
                } else if !word.isEmpty {
                    breakLine()
                    place(word, after: wordSeparator)
                }
            }
        }
        lines.append(current)
        return lines
    }

    /// The columns `text` takes on the screen: what ``DisplayWidth`` counts, less the escape sequences that only
    /// style it.
    static func visibleWidth(_ text: some StringProtocol) -> Int {
        var width = 0
        forEachCharacter(of: text) { character, isStyle in
            if !isStyle { width += DisplayWidth.of(character) }
            return true
        }
        return width
    }

    /// Calls `body` with each character of `text` and whether it belongs to an escape sequence (`ESC [ … m`, or
    /// `ESC` and one character) rather than to what shows, until `body` returns `false`.
    private static func forEachCharacter(
        of text: some StringProtocol, _ body: (Character, _ isStyle: Bool) -> Bool
    ) {
        var escape: (started: Bool, inSequence: Bool) = (false, false)
        for character in text {
            let isStyle: Bool
            if escape.inSequence {
                if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value) {
                    escape = (false, false)
                }
                isStyle = true
            } else if escape.started {
                escape = (false, character == "[")
                isStyle = true
            } else if character == "\u{1B}" {
                escape.started = true
                isStyle = true
            } else {
                isStyle = false
            }
            guard body(character, isStyle) else { return }
        }
    }

    /// Shows `line` as the countdown, cut to the screen's width so it never wraps, the cursor left where it was.
    func countdown(_ line: String) -> String {
        "\u{1B}7" + moveTo(row: rows - 1) + Self.escape + "2K" + Self.fitting(line, columns: columns - 1) + "\u{1B}8"
    }

    /// The columns the prompt line has for what the host types, after ``prompt``.
    var promptColumns: Int { columns - Self.prompt.count }

    /// The prompt row showing `line` (a ``LineEditor``'s view of ``promptColumns`` columns), the cursor where the
    /// host types.
    func promptLine(_ line: LineEditor.View) -> String {
        moveTo(row: rows) + Self.escape + "2K" + Self.prompt + line.text
            + moveTo(row: rows, column: Self.prompt.count + line.cursorColumn + 1)
    }

    /// A fresh prompt after the host pressed Enter.
    var freshPrompt: String {
        moveTo(row: rows) + Self.escape + "2K" + Self.prompt
    }

    /// `line` cut to at most `columns` display columns, with "…" where it was cut. Its colours and bold take no
    /// column and are never cut through; a line cut inside them ends with the style reset.
    static func fitting(_ line: String, columns: Int) -> String {
        guard visibleWidth(line) > columns else { return line }
        guard columns > 0 else { return "" }
        var fitted = ""
        var used = 0
        var styled = false
        forEachCharacter(of: line) { character, isStyle in
            if isStyle {
                fitted.append(character)
                styled = true
                return true
            }
            let width = DisplayWidth.of(character)
            guard used + width <= columns - 1 else { return false }
            fitted.append(character)
            used += width
            return true
        }
        return fitted + "…" + (styled ? Self.escape + "0m" : "")
    }

    /// The screen of the terminal on standard output, when both standard input and output are terminals that
    /// take cursor movements (``TerminalCapabilities/takesEscapeSequences(term:)``).
    static func current(term: String? = ProcessInfo.processInfo.environment["TERM"]) -> PlayScreen? {
        guard TerminalCapabilities.takesEscapeSequences(term: term), isatty(STDIN_FILENO) != 0,
            isatty(STDOUT_FILENO) != 0
        else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row >= 4, size.ws_col >= 10 else {
            return nil
        }
        return PlayScreen(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}

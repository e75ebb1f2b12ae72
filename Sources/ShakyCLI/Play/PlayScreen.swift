import Foundation
import ShakyBoard

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

    /// Gives the whole screen back to the shell, with the cursor below what was shown.
    var tearDown: String {
        Self.escape + "r" + moveTo(row: rows) + "\r\n"
    }

    /// Adds `text` (one or more lines) at the bottom of the scrolling events, the cursor left where it was.
    func event(_ text: String) -> String {
        var output = "\u{1B}7" + moveTo(row: rows - 2)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            output += "\n\r" + Self.escape + "2K" + line
        }
        return output + "\u{1B}8"
    }

    /// Shows `line` as the countdown, cut to the screen's width so it never wraps, the cursor left where it was.
    func countdown(_ line: String) -> String {
        "\u{1B}7" + moveTo(row: rows - 1) + Self.escape + "2K" + Self.fitting(line, columns: columns - 1) + "\u{1B}8"
    }

    /// A fresh prompt after the host pressed Enter.
    var freshPrompt: String {
        moveTo(row: rows) + Self.escape + "2K" + Self.prompt
    }

    /// `line` cut to at most `columns` display columns, with "…" where it was cut.
    static func fitting(_ line: String, columns: Int) -> String {
        DisplayWidth.truncated(line, columns: columns)
    }

    /// The screen of the terminal on standard output, when both standard input and output are terminals.
    static func current() -> PlayScreen? {
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row >= 4, size.ws_col >= 10 else {
            return nil
        }
        return PlayScreen(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}

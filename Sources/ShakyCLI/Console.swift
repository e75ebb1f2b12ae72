import Foundation
import ShakyCore
import SystemCalls

/// Where the commands write: standard output and error in the program, a recorder in tests.
///
/// Commands reach it through ``current``, a task-local value, so a test can run a command in-process
/// and read what it printed.
protocol Console: Sendable {
    /// Whether output goes to a terminal, where countdowns redraw in place and fixed letters are underlined.
    var isTerminal: Bool { get }
    /// The width, in columns, of the terminal output goes to, which tables are fitted to; `nil` when output goes to
    /// a pipe or a file, which get every line whole.
    var width: Int? { get }
    /// Writes `text` to standard output as is.
    func write(_ text: String)
    /// Writes `text` to standard error as is.
    func writeError(_ text: String)
}

extension Console {
    /// Writes `line` and a newline to standard output.
    func print(_ line: String = "") { write(line + "\n") }

    /// Writes `line` and a newline to standard error, its control characters shown as � (`TerminalText.printable`):
    /// an error may quote what was typed or sent (a team name pasted with an escape sequence), which must not reach
    /// the terminal as a command to it.
    func printError(_ line: String) { writeError(TerminalText.printable(line) + "\n") }

    /// How text for people is styled on this console.
    var style: TextStyle { isTerminal ? .terminal : .plain }

    /// No width: a console that does not say is not a terminal.
    var width: Int? { nil }
}

/// The process's standard output and error.
struct StandardConsole: Console {
    let isTerminal: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        isTerminal = isatty(STDOUT_FILENO) != 0 && TerminalCapabilities.coloursWanted(environment: environment)
    }

    /// The terminal's width as it is now (a window resized between two commands is seen by the second), whatever
    /// NO_COLOR says: a terminal without colours wraps its lines all the same.
    var width: Int? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    func write(_ text: String) {
        Self.write(text, to: STDOUT_FILENO)
    }

    func writeError(_ text: String) {
        Self.write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text` to `descriptor`. When the reader has gone away (`shaky watch | head -2`)
    /// the program has nothing left to do: it exits at once, quietly, with status 0. Any other failure (a full disk
    /// under `shaky pack export Animals > backup.json`, a closed descriptor) loses what was to be written, which a
    /// script must hear of: the program says so on standard error and exits with status 1.
    private static func write(_ text: String, to descriptor: Int32) {
        guard let code = FileAccess.writeAll(text, to: descriptor) else { return }
        guard descriptor == STDOUT_FILENO, let lost = StandardStreams.outputLost(errno: code, by: "shaky") else {
            // The reader went away, or standard error cannot be written: there is nobody to tell.
            exit(code == EPIPE ? ShakyExitStatus.success.rawValue : ShakyExitStatus.failure.rawValue)
        }
        StandardStreams.writeError(lost)
        exit(ShakyExitStatus.failure.rawValue)
    }
}

/// The console the running command writes to.
enum CurrentConsole {
    @TaskLocal static var value: any Console = StandardConsole()
}

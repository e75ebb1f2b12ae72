import Foundation

/// Where the commands write: standard output and error in the program, a recorder in tests.
///
/// Commands reach it through ``current``, a task-local value, so a test can run a command in-process
/// and read what it printed.
protocol Console: Sendable {
    /// Whether output goes to a terminal, where countdowns redraw in place and fixed letters are underlined.
    var isTerminal: Bool { get }
    /// Writes `text` to standard output as is.
    func write(_ text: String)
    /// Writes `text` to standard error as is.
    func writeError(_ text: String)
}

extension Console {
    /// Writes `line` and a newline to standard output.
    func print(_ line: String = "") { write(line + "\n") }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    /// How text for people is styled on this console.
    var style: TextStyle { isTerminal ? .terminal : .plain }
}

/// The process's standard output and error.
struct StandardConsole: Console {
    let isTerminal: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        isTerminal = isatty(STDOUT_FILENO) != 0 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The console the running command writes to.
enum CurrentConsole {
    @TaskLocal static var value: any Console = StandardConsole()
}

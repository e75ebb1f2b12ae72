import ArgumentParser
import Foundation
import ShakyCore
import SystemCalls
import Varlink

/// `shakyd`: the Shaky Words daemon and its sensor tools.
@main
struct Shakyd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakyd",
        abstract: "The Shaky Words daemon: reads the accelerometer, runs the game, serves it over Varlink.",
        discussion: """
            Without a subcommand, shakyd serves (see shakyd serve). The shaky command is its client. As root or \
            under systemd the daemon keeps its state in /var/lib/shaky and listens on /run/shaky/shaky.sock; \
            started by a user, it keeps them in that user's folders.

            FILES:
            /etc/shaky/shakyd.conf: The configuration file (YAML; see shakyd.conf.example in the data folder). \
            A bad key or value is refused with the file and line; a missing file is fine.
            /var/lib/shaky/shaky.sqlite: The state of the system daemon: packs, the game in play, the history \
            and the settings. A user's daemon keeps it in $XDG_STATE_HOME/shaky (or ~/.local/state/shaky).
            /run/shaky/shaky.sock: The system daemon's Varlink socket. A user's daemon listens on \
            $XDG_RUNTIME_DIR/shaky/shaky.sock, or /tmp/shaky-UID/shaky.sock when there is no XDG_RUNTIME_DIR.
            PREFIX/share/shaky: The data folder beside PREFIX/bin/shakyd: sounds, built-in packs, demo trace.

            ENVIRONMENT:
            SHAKY_SOCKET: The socket to listen on (and the one shaky calls), unless --socket or the configuration \
            file names another.
            SHAKY_DATA_DIR: Replaces the data folder (sounds, packs, traces).
            XDG_STATE_HOME: Where a user's daemon keeps its state (in shaky/ inside it).
            XDG_RUNTIME_DIR: Where a user's daemon puts its socket (shaky/shaky.sock inside it).
            RUNTIME_DIRECTORY: Set by systemd (RuntimeDirectory=): the socket is shaky.sock in its first \
            folder, unless SHAKY_SOCKET, --socket or the configuration file names another.
            STATE_DIRECTORY: Set by systemd (StateDirectory=): the database's folder, unless --state-dir or the \
            configuration file names another.
            LISTEN_FDS: Set with LISTEN_PID by systemd's socket activation (shakyd.socket): the daemon serves \
            the socket it is passed instead of making its own.
            NOTIFY_SOCKET: Where the daemon tells systemd it is ready and stopping, and pings the watchdog \
            WATCHDOG_USEC asks for.
            JOURNAL_STREAM: Set by systemd when standard error goes to the journal: each log line then carries \
            its syslog priority, and no timestamp.

            EXIT STATUS:
            0: The daemon stopped cleanly (SIGTERM, SIGINT or SIGHUP), or a tool finished.
            1: The daemon cannot run (the socket, the state folder, the database or a device failed), or a \
            tool failed.
            2: The command line is wrong.
            3: The configuration file is refused (its file:line is printed).

            EXAMPLES:
            A daemon of your own on the bundled demo trace, silent; shaky finds its socket:
              shakyd --input demo --sound-device none
              shaky demo
            The system daemon, started by its socket, and its log:
              sudo systemctl start shakyd.socket
              journalctl -u shakyd -b
            """,
        version: ShakyVersion.current,
        subcommands: [Serve.self, Detect.self, Record.self, ListDevices.self, WatchButtons.self],
        defaultSubcommand: Serve.self,
    )
}

/// The exit statuses of `shakyd` (its man page's EXIT STATUS).
enum ShakydExitStatus: Int32 {
    /// Stopped cleanly, or a tool finished.
    case success = 0
    /// Cannot run, or a tool failed.
    case failure = 1
    /// The command line is wrong.
    case usage = 2
    /// The configuration file is refused.
    case badConfiguration = 3
}

extension Shakyd {
    /// Runs the command on a task while the main thread waits for it.
    ///
    /// An `async` main ends the main thread with `dispatch_main`, whose `pthread_exit` unwinds the thread's stack:
    /// that read the binary's unwind tables (`.eh_frame_hdr`, `.eh_frame`) and libgcc's unwinder into memory, which
    /// nothing else in the daemon touches. Waiting on a semaphore leaves them on disk. Nothing in the daemon runs on
    /// the main actor, which this leaves without a thread.
    static func main() {
        ProcessSetup.apply()
        let finished = DispatchSemaphore(value: 0)
        // Detached: `main` is on the main actor, whose jobs would wait for the main thread.
        Task.detached {
            await runCommand()
            finished.signal()
        }
        finished.wait()
    }

    /// What is wrong when the first word is no command's name and serving (the default) takes no such word:
    /// `shakyd detetc x` was refused as two unexpected arguments of `shakyd serve`. Names the command likely meant
    /// (one edit or two away), else lists them. `nil` when the first word is an option or a command's name.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        let printable = TerminalText.printable(word)
        let listed = names.dropLast().map { "`\($0)`" }.spokenList("or")
        if let meant = EditDistance.closest(to: word, among: names) {
            return "There is no command “\(printable)”: did you mean `shakyd \(meant)`? (`shakyd --help` lists them.)"
        }
        return "There is no command “\(printable)”; the commands are \(listed) (`shakyd --help`)."
    }

    /// Runs the command; unlike the default, a wrong command line exits with 2, not 64, and a failure is headed
    /// `shakyd:`.
    private static func runCommand() async {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if ShakydCompletion.isScriptRequest(arguments) { ShakydCompletion.printScript(arguments) }
            // Before parsing: serving takes no word, and `shakyd bogus --help` would print serve's help.
            if let unknown = unknownCommand(in: arguments) {
                StandardStreams.writeError("shakyd: \(unknown)\n")
                Foundation.exit(ShakydExitStatus.usage.rawValue)
            }
            var command: any ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                guard NegativeOptionValues.isMissingValue(message(for: error)),
                    let joined = NegativeOptionValues.joined(arguments)
                else { throw error }
                command = try parseAsRoot(joined)
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            // Help and --version go to standard output as the parser prints them.
            guard !code.isSuccess, !message.isEmpty else { exit(withError: error) }
            // Headed `shakyd:` as the daemon's other failures are, not the parser's `Error:`.
            let said = message.hasPrefix("Error: ") ? "shakyd: " + message.dropFirst("Error: ".count) : message
            StandardStreams.writeError(said + "\n")
            Foundation.exit(code == .validationFailure ? ShakydExitStatus.usage.rawValue : code.rawValue)
        }
    }
}

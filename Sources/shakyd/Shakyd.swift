import ArgumentParser
import Foundation
import ShakyCore
import Varlink

/// `shakyd`: the Shaky Words daemon and its sensor tools.
@main
struct Shakyd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakyd",
        abstract: "The Shaky Words daemon: reads the accelerometer, runs the game, serves it over Varlink.",
        discussion: """
            Without a subcommand, shakyd serves (see shakyd serve). The shaky command is its client.

            FILES: /etc/shaky/shakyd.conf is the configuration file (YAML; see shakyd.conf.example in the \
            data folder); a bad key or value is refused with the file and line. As root or under systemd the \
            state (the database shaky.sqlite: packs, the game in play, the history, the settings) is kept in \
            /var/lib/shaky and the socket is /run/shaky/shaky.sock; otherwise they are $XDG_STATE_HOME/shaky \
            (or ~/.local/state/shaky) and $XDG_RUNTIME_DIR/shaky/shaky.sock. The sounds, built-in packs and \
            demo trace are in PREFIX/share/shaky beside PREFIX/bin/shakyd.

            ENVIRONMENT: SHAKY_SOCKET is the socket to listen on (and the one shaky calls) unless --socket is \
            given. SHAKY_DATA_DIR replaces the data folder (sounds, packs, traces). XDG_RUNTIME_DIR and \
            XDG_STATE_HOME place a user's daemon.

            EXIT STATUS: 0 the daemon stopped cleanly (SIGTERM or SIGINT) or a tool finished; 1 it cannot run \
            (the socket, the state folder, the database or a device failed) or a tool failed; 2 the command \
            line is wrong; 3 the configuration file is refused (its file:line is printed).
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
    /// Runs the command; unlike the default, a wrong command line exits with 2, not 64.
    static func main() async {
        ProcessSetup.apply()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(ShakydExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import ShakeDetection
import ShakyCore
import ShakyDaemon

extension Shakyd {
    /// `shakyd serve` (the default): runs the daemon.
    struct Serve: AsyncParsableCommand {
        // Named here, not only by the type: the help's dump (which the man page is made from) names the default
        // subcommand only when its configuration does, and the SYNOPSIS then shows the subcommand as optional.
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Run the daemon: read the sensor and the buttons, run the game and serve it over Varlink.",
            discussion: """
                Reads the accelerometer, runs the Shaky Words game and serves it over Varlink on a Unix socket. \
                Settings come from the configuration file, then from these flags (flags win). Without a sensor \
                the daemon runs anyway and hints are manual. SIGTERM, SIGINT or SIGHUP (its terminal closed) stop \
                it after saving the game; the next start restores it, paused.

                Defaults: as root (or under systemd) the socket is /run/shaky/shaky.sock and the state \
                /var/lib/shaky; otherwise $XDG_RUNTIME_DIR/shaky/shaky.sock and $XDG_STATE_HOME/shaky \
                (or ~/.local/state/shaky).

                EXAMPLES:
                No sensor (hints with `shaky hint`), logging each buzzer press:
                  shakyd serve --input none --log-level debug
                A recorded trace, over and over, on a socket and state folder of its own:
                  shakyd serve --input trace:shakes.csv,loop --sound-device none \\
                    --socket /tmp/shaky/shaky.sock --state-dir /tmp/shaky
                """)

        @OptionGroup var options: ServeOptions

        func run() async throws {
            let flags = options.daemonOptions
            let file = try ConfigurationFileLoading.load(named: options.config)
            let configuration = DaemonConfiguration(resolving: file.overridden(by: flags))
            let level = configuration.logLevel
            LoggingSystem.bootstrap { label in
                var handler = DaemonLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            let logger = Logger(label: "shakyd")
            if !ProcessSetup.tasksRunOnEventLoop {
                logger.notice("tasks run on libdispatch's threads, which wake the process every second")
            }
            do {
                try await Daemon.run(configuration: configuration, logger: logger)
            } catch {
                logger.critical("cannot run: \(error)")
                throw ExitCode.failure
            }
        }
    }
}

/// `--log-level`: argument-parser lists the levels, with what each adds, in `--help`, the manual and when a value is
/// not one of them.
extension Logger.Level: @retroactive ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .trace: "Everything: each call to the socket too, as it starts."
        case .debug: "Details for finding a problem (a sound device's errors, each buzzer press)."
        case .info: "Start, stop and the devices found (the default)."
        case .notice: "What a host should know, such as no sensor found."
        case .warning: "Problems the daemon works around."
        case .error: "Failures of one thing (a save, a device)."
        case .critical: "Only why the daemon cannot run."
        }
    }
}

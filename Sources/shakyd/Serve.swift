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

        @Option(
            help: ArgumentHelp(
                "The configuration file (YAML; default: /etc/shaky/shakyd.conf). A missing default file is fine; a "
                    + "named one must exist.",
                valueName: "file"),
            completion: .file())
        var config: String?

        @Option(
            help: ArgumentHelp(
                "The Varlink socket to listen on (default: $SHAKY_SOCKET, else /run/shaky/shaky.sock as root or "
                    + "under systemd, $XDG_RUNTIME_DIR/shaky/shaky.sock otherwise).",
                valueName: "path"),
            completion: .file())
        var socket: String?

        @Option(
            name: .customLong("state-dir"),
            help: ArgumentHelp(
                "The folder holding the database, shaky.sqlite (default: /var/lib/shaky as root or under systemd, "
                    + "$XDG_STATE_HOME/shaky otherwise).",
                valueName: "folder"),
            completion: .directory)
        var stateDirectory: String?

        @Option(
            help: "The accelerometer whose shakes reveal hints.",
            completion: .list(["auto", "iio", "evdev", "trace:", "demo", "none"]))
        var input: ServeInput?

        @Option(help: "How hard a shake must be to count (until changed over the socket).")
        var sensitivity: ShakeSensitivity?

        @Option(
            name: .customLong("sound-device"),
            help: ArgumentHelp(
                "The ALSA device for sound cues (see `aplay -L`), or none for silence (default: default).",
                valueName: "name"),
            completion: .list(["default", "none"]))
        var soundDevice: String?

        @Option(
            help: ArgumentHelp(
                "A folder of .wav files replacing built-in cues of the same names (default: only the built-in cues).",
                valueName: "folder"),
            completion: .directory)
        var sounds: String?

        @Option(
            name: .customLong("log-level"),
            help: "The least important messages logged.")
        var logLevel: Logger.Level?

        @Option(
            help: ArgumentHelp(
                "Read key and button devices as team buzzers: auto (every device list-devices accepts, the default) "
                    + "or none.",
                valueName: "auto|none"),
            completion: .list(["auto", "none"]))
        var buzzers: String?

        @Option(
            name: .customLong("early-press-lockout"),
            help: ArgumentHelp(
                "Seconds a team that presses before a question opens cannot buzz, for new games that do not set "
                    + "the rule themselves (shaky new --early-press-lockout), 0 to 60; 0, the default: only ignored.",
                valueName: "seconds"), transform: DecimalText.argument)
        var earlyPressLockout: Double?

        @Option(
            name: .customLong("reorder-window"),
            help: ArgumentHelp(
                "Milliseconds button presses are held so that presses read from several devices are ranked by "
                    + "the kernel's time (10 to 200; default 40).",
                valueName: "milliseconds"), transform: DecimalText.wholeNumberArgument)
        var reorderWindow: Int?

        @Option(
            help: ArgumentHelp(
                "Motion controllers as shakers next to the board's sensor: auto (every DualSense, DualShock 4, "
                    + "Joy-Con or Wii Remote found, the default) or none.",
                valueName: "auto|none"),
            completion: .list(["auto", "none"]))
        var shakers: String?

        @Flag(
            name: .customLong("grab-keyboards"),
            help: "Grab keyboards read as buzzers too, so their presses reach neither the console nor a desktop.")
        var grabKeyboards = false

        func validate() throws {
            // As in the configuration file: an empty path or device is a mistake (`--socket "$UNSET"`), never a default.
            for (flag, value) in [
                ("--socket", socket), ("--state-dir", stateDirectory), ("--sound-device", soundDevice),
            ]
            where value?.isEmpty == true {
                throw ValidationError("\(flag) must not be empty")
            }
            if let buzzers, !["auto", "none"].contains(buzzers) {
                throw ValidationError("--buzzers must be auto or none, not “\(buzzers)”")
            }
            if let earlyPressLockout, !(0...60).contains(earlyPressLockout) {
                throw ValidationError(
                    "--early-press-lockout must be 0 to 60 seconds, not \(DecimalText.said(earlyPressLockout, outside: 0...60))"
                )
            }
            if let reorderWindow, !DaemonConfiguration.reorderWindowRange.contains(reorderWindow) {
                throw ValidationError("--reorder-window must be 10 to 200 milliseconds, not \(reorderWindow)")
            }
            if let shakers, !["auto", "none"].contains(shakers) {
                throw ValidationError("--shakers must be auto or none, not “\(shakers)”")
            }
        }

        func run() async throws {
            let flags = DaemonOptions(
                socket: socket, stateDirectory: stateDirectory, input: input?.description, soundDevice: soundDevice,
                sounds: sounds, logLevel: logLevel, sensitivity: sensitivity?.rawValue,
                buzzers: buzzers, earlyPressLockout: earlyPressLockout, grabKeyboards: grabKeyboards ? true : nil,
                reorderWindow: reorderWindow, shakers: shakers)
            let file = try ConfigurationFileLoading.load(named: config)
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

import ArgumentParser
import Logging
import ShakeDetection
import ShakyCore
import ShakyDaemon

/// The options of `shakyd serve`, which `shakyd` takes without a subcommand: a group of their own, so that the
/// completion scripts offer them after `shakyd` alone too (``ShakydCompletion``).
struct ServeOptions: ParsableArguments {
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

    /// The options given, as the configuration file's settings are read (`nil`: not given).
    var daemonOptions: DaemonOptions {
        DaemonOptions(
            socket: socket, stateDirectory: stateDirectory, input: input?.description, soundDevice: soundDevice,
            sounds: sounds, logLevel: logLevel, sensitivity: sensitivity?.rawValue,
            buzzers: buzzers, earlyPressLockout: earlyPressLockout, grabKeyboards: grabKeyboards ? true : nil,
            reorderWindow: reorderWindow, shakers: shakers)
    }
}

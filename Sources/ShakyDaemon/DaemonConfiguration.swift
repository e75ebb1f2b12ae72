import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import Varlink
import Yams

/// The daemon's settings as written in the configuration file or given as flags; every field is optional.
///
/// The file (`/etc/shaky/shakyd.conf` by default) is YAML with the same names as the flags:
/// ```yaml
/// socket: /run/shaky/shaky.sock
/// state-dir: /var/lib/shaky
/// input: auto
/// sound-device: default
/// log-level: info
/// ```
public struct DaemonSettings: Codable, Equatable, Sendable {
    /// `--socket`: the Varlink socket path.
    public var socket: String?
    /// `--state-dir`: where the database lives.
    public var stateDirectory: String?
    /// `--input`: `auto`, `iio[:NAME]`, `evdev[:PATH]`, `trace:FILE[,speed=max][,loop]` or `none`.
    public var input: String?
    /// `--sound-device`: the ALSA PCM name, or `none` for silence.
    public var soundDevice: String?
    /// `--sounds`: a folder of cue files that replace the built-in ones, file by file.
    public var sounds: String?
    /// `--log-level`: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level?
    /// `--sensitivity`: the shake detector preset, light, medium or hard.
    public var sensitivity: String?
    /// `--buzzers`: `auto` reads every key or button device `shakyd list-devices` accepts; `none` reads none.
    public var buzzers: String?
    /// `--early-press-lockout`: seconds a team that presses before a question opens cannot buzz (0: off), for
    /// new games that do not set the rule themselves.
    public var earlyPressLockout: Double?
    /// `--grab-keyboards`: keep keyboards' presses from the console and desktop too (other buzzers always are).
    public var grabKeyboards: Bool?
    /// `--reorder-window`: milliseconds presses are held so that presses read from several devices leave in
    /// kernel-time order (``DaemonConfiguration/reorderWindowRange``).
    public var reorderWindow: Int?
    /// `--shakers`: `auto` lets every motion controller found shake for hints next to the board's sensor; `none`
    /// only the board's sensor.
    public var shakers: String?

    /// Creates settings; `nil` means "not said here".
    public init(
        socket: String? = nil, stateDirectory: String? = nil, input: String? = nil, soundDevice: String? = nil,
        sounds: String? = nil, logLevel: Logger.Level? = nil, sensitivity: String? = nil, buzzers: String? = nil,
        earlyPressLockout: Double? = nil, grabKeyboards: Bool? = nil, reorderWindow: Int? = nil,
        shakers: String? = nil
    ) {
        self.reorderWindow = reorderWindow
        self.shakers = shakers
        self.grabKeyboards = grabKeyboards
        self.buzzers = buzzers
        self.earlyPressLockout = earlyPressLockout
        self.socket = socket
        self.stateDirectory = stateDirectory
        self.input = input
        self.soundDevice = soundDevice
        self.sounds = sounds
        self.logLevel = logLevel
        self.sensitivity = sensitivity
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case socket
        case stateDirectory = "state-dir"
        case input
        case soundDevice = "sound-device"
        case sounds
        case logLevel = "log-level"
        case sensitivity
        case buzzers
        case earlyPressLockout = "early-press-lockout"
        case grabKeyboards = "grab-keyboards"
        case reorderWindow = "reorder-window"
        case shakers
    }

    /// These settings with every field that `overrides` sets replaced by its value.
    public func overridden(by overrides: DaemonSettings) -> DaemonSettings {
        DaemonSettings(
            socket: overrides.socket ?? socket,
            stateDirectory: overrides.stateDirectory ?? stateDirectory,
            input: overrides.input ?? input,
            soundDevice: overrides.soundDevice ?? soundDevice,
            sounds: overrides.sounds ?? sounds,
            logLevel: overrides.logLevel ?? logLevel,
            sensitivity: overrides.sensitivity ?? sensitivity,
            buzzers: overrides.buzzers ?? buzzers,
            earlyPressLockout: overrides.earlyPressLockout ?? earlyPressLockout,
            grabKeyboards: overrides.grabKeyboards ?? grabKeyboards,
            reorderWindow: overrides.reorderWindow ?? reorderWindow,
            shakers: overrides.shakers ?? shakers)
    }
}

/// A configuration file that cannot be used, with the place and the problem.
public struct ConfigurationFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line, when the problem is on one.
    public var line: Int?
    /// What is wrong.
    public var problem: String

    public var description: String {
        if let line { "\(path):\(line): \(problem)" } else { "\(path): \(problem)" }
    }
}

extension DaemonSettings {
    /// Reads a configuration file.
    ///
    /// - Parameter required: when `false` (the default path), a missing file gives empty settings;
    ///   when `true` (a path the user named), a missing file is an error.
    public static func load(path: String, required: Bool) throws(ConfigurationFileError) -> DaemonSettings {
        if !required, !FileManager.default.fileExists(atPath: path) { return DaemonSettings() }
        let data: Data
        do {
            data = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readToEnd() ?? Data()
        } catch {
            throw ConfigurationFileError(
                path: path, line: nil, problem: "cannot read the file: \((error as NSError).localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationFileError(path: path, line: nil, problem: "not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses configuration text; unknown keys are errors, so a typo never passes silently.
    public static func parse(_ text: String, path: String) throws(ConfigurationFileError) -> DaemonSettings {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationFileError(path: path, line: error.line, problem: "not valid YAML: \(error)")
        } catch {
            throw ConfigurationFileError(path: path, line: nil, problem: "not valid YAML: \(error)")
        }
        guard let node else { return DaemonSettings() }
        guard let mapping = node.mapping else {
            throw ConfigurationFileError(
                path: path, line: node.mark.map { $0.line }, problem: "expected `key: value` lines at the top level")
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        for key in mapping.keys {
            guard let name = key.string, known.contains(name) else {
                let list = CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationFileError(
                    path: path, line: key.mark.map { $0.line },
                    problem: "unknown setting “\(key.string ?? "?")”; known settings: \(list)")
            }
        }
        let settings: DaemonSettings
        do {
            settings = try YAMLDecoder().decode(DaemonSettings.self, from: node)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.first?.stringValue ?? "?"
            let line = mapping.first { $0.key.string == key }?.key.mark.map { $0.line }
            throw ConfigurationFileError(
                path: path, line: line, problem: "bad value for “\(key)”: \(context.debugDescription)")
        } catch {
            throw ConfigurationFileError(path: path, line: nil, problem: "\(error)")
        }
        if let problem = settings.problem {
            let line = mapping.first { $0.key.string == problem.key.rawValue }?.key.mark.map { $0.line }
            throw ConfigurationFileError(path: path, line: line, problem: problem.message)
        }
        return settings
    }

    /// The first value that the daemon could not use, with its key and what is wrong.
    var problem: (key: CodingKeys, message: String)? {
        if let sensitivity, !["light", "medium", "hard"].contains(sensitivity) {
            return (.sensitivity, "sensitivity must be light, medium or hard, not “\(sensitivity)”")
        }
        if let input, input != "demo", input != "none" {
            do {
                _ = try InputSpec(parsing: input)
            } catch {
                return (
                    .input,
                    "input “\(input)” cannot be used: \(error.problem); use auto, iio[:NAME], evdev[:PATH], "
                        + "trace:FILE[,speed=max][,loop], demo or none"
                )
            }
        }
        if let buzzers, !["auto", "none"].contains(buzzers) {
            return (.buzzers, "buzzers must be auto or none, not “\(buzzers)”")
        }
        if let shakers, !["auto", "none"].contains(shakers) {
            return (.shakers, "shakers must be auto or none, not “\(shakers)”")
        }
        if let earlyPressLockout, !(0...60).contains(earlyPressLockout) {
            return (.earlyPressLockout, "early-press-lockout must be 0 to 60 seconds, not \(earlyPressLockout)")
        }
        if let reorderWindow, !DaemonConfiguration.reorderWindowRange.contains(reorderWindow) {
            let range = DaemonConfiguration.reorderWindowRange
            return (
                .reorderWindow,
                "reorder-window must be \(range.lowerBound) to \(range.upperBound) milliseconds, not \(reorderWindow)"
            )
        }
        for (key, value) in [
            (CodingKeys.socket, socket), (.stateDirectory, stateDirectory), (.soundDevice, soundDevice),
        ]
        where value?.isEmpty == true {
            return (key, "\(key.rawValue) must not be empty")
        }
        return nil
    }
}

extension YamlError {
    fileprivate var line: Int? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            mark.line
        default:
            nil
        }
    }
}

/// The daemon's settings with every default filled in: what it actually runs with.
public struct DaemonConfiguration: Equatable, Sendable {
    /// The Varlink socket path.
    public var socketPath: String
    /// The folder holding `shaky.sqlite`.
    public var stateDirectory: String
    /// The accelerometer input specification.
    public var input: String
    /// The ALSA PCM name.
    public var soundDevice: String
    /// A folder of replacement cue files, if any.
    public var soundsDirectory: String?
    /// The lowest level logged.
    public var logLevel: Logger.Level
    /// The shake detector preset name.
    public var sensitivity: String
    /// The socket's folder when it must be private (the `/tmp` fallback): created 0700 and checked before binding.
    public var privateSocketDirectory: String?
    /// Whether key and button devices are read as buzzers (`auto`) or not (`none`).
    public var buzzers: String
    /// Seconds an early press locks a team out; 0 (the default) turns the rule off.
    public var earlyPressLockoutSeconds: Double
    /// Whether keyboards read as buzzers are grabbed too (off by default: the host may type on one).
    public var grabKeyboards: Bool
    /// Milliseconds button presses are held for reordering by kernel time (40 by default).
    public var reorderWindowMilliseconds: Int
    /// Whether motion controllers shake for hints next to the board's sensor (`auto`) or not (`none`).
    public var shakers: String

    /// The reorder windows the daemon takes, in milliseconds. Under 10 ms a USB device polled every 8–10 ms (or
    /// any Bluetooth one) could lose to a later press read first; over 200 ms a buzz's light and tone come late
    /// enough for a person to notice, and a team could react to another team's light before the order is decided.
    public static let reorderWindowRange = 10...200

    /// The reorder window as a duration; throws when the setting is out of ``reorderWindowRange``.
    public func reorderWindow() throws(DaemonStartError) -> Duration {
        guard Self.reorderWindowRange.contains(reorderWindowMilliseconds) else {
            throw DaemonStartError(
                problem: "reorder-window must be \(Self.reorderWindowRange.lowerBound) to "
                    + "\(Self.reorderWindowRange.upperBound) milliseconds, not \(reorderWindowMilliseconds)")
        }
        return .milliseconds(reorderWindowMilliseconds)
    }

    /// Whether motion controllers shake for hints; throws when the setting is neither `auto` nor `none`.
    public func readsShakers() throws(DaemonStartError) -> Bool {
        switch shakers {
        case "auto": return true
        case "none": return false
        default: throw DaemonStartError(problem: "shakers must be auto or none, not “\(shakers)”")
        }
    }

    /// The early-press lock-out as a duration, `nil` when off; throws when the setting is out of range.
    public func earlyPressLockout() throws(DaemonStartError) -> Duration? {
        guard (0...60).contains(earlyPressLockoutSeconds) else {
            throw DaemonStartError(
                problem: "early-press-lockout must be 0 to 60 seconds, not \(earlyPressLockoutSeconds)")
        }
        guard earlyPressLockoutSeconds > 0 else { return nil }
        return .milliseconds(Int64((earlyPressLockoutSeconds * 1000).rounded()))
    }

    /// Whether buzzer devices are read; throws when the setting is neither `auto` nor `none`.
    public func readsBuzzers() throws(DaemonStartError) -> Bool {
        switch buzzers {
        case "auto": return true
        case "none": return false
        default: throw DaemonStartError(problem: "buzzers must be auto or none, not “\(buzzers)”")
        }
    }

    /// The database file inside the state folder.
    public var databasePath: String { stateDirectory + "/shaky.sqlite" }

    /// Fills the unset fields of `settings` with the defaults for this process.
    public init(resolving settings: DaemonSettings, paths: DefaultPaths = DefaultPaths()) {
        socketPath = settings.socket ?? paths.daemonSocket
        let fallback = paths.fallbackSocketDirectory
        privateSocketDirectory = socketPath.hasPrefix(fallback + "/") ? fallback : nil
        stateDirectory = settings.stateDirectory ?? paths.stateDirectory
        input = settings.input ?? "auto"
        soundDevice = settings.soundDevice ?? "default"
        soundsDirectory = settings.sounds
        logLevel = settings.logLevel ?? .info
        sensitivity = settings.sensitivity ?? "medium"
        buzzers = settings.buzzers ?? "auto"
        earlyPressLockoutSeconds = settings.earlyPressLockout ?? 0
        grabKeyboards = settings.grabKeyboards ?? false
        reorderWindowMilliseconds = settings.reorderWindow ?? PressReorderWindow.standardMilliseconds
        shakers = settings.shakers ?? "auto"
    }
}

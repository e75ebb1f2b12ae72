import Foundation
import Logging
import ShakyCore
import ShakyDrivers
import SystemCalls
import Varlink
import Yams

/// The daemon's options as written in the configuration file or given as flags; every field is optional.
///
/// The file (`/etc/shaky/shakyd.conf` by default) is YAML with the same names as the flags:
/// ```yaml
/// socket: /run/shaky/shaky.sock
/// state-dir: /var/lib/shaky
/// input: auto
/// sound-device: default
/// log-level: info
/// ```
public struct DaemonOptions: Codable, Equatable, Sendable {
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
    /// `accelerometers:` (the file only): descriptions of input accelerometers shakyd does not know.
    public var accelerometers: [AccelerometerDescription]? = nil
    /// Where the configuration file set `input`, so that what is said about the input names the file's line and not
    /// a flag the host never gave; `nil` when a flag gave it or nothing did.
    public var inputPlace: ConfigurationFilePlace? = nil

    /// Creates options; `nil` means "not said here".
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

    /// These options with every field that `overrides` sets replaced by its value.
    public func overridden(by overrides: DaemonOptions) -> DaemonOptions {
        var options = DaemonOptions(
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
            shakers: overrides.shakers ?? shakers
        )
        .describing(overrides.accelerometers ?? accelerometers)
        options.inputPlace = overrides.input != nil ? overrides.inputPlace : inputPlace
        return options
    }
}

extension DaemonOptions {
    /// Reads a configuration file.
    ///
    /// - Parameter required: when `false` (the default path), a missing file gives empty settings;
    ///   when `true` (a path the user named), a missing file is an error.
    public static func load(path: String, required: Bool) throws(ConfigurationFileError) -> DaemonOptions {
        if !required, !FileManager.default.fileExists(atPath: path) { return DaemonOptions() }
        let data: Data
        do {
            data = try FileAccess.read(path, limit: 1 << 20)
        } catch {
            throw ConfigurationFileError(path: path, line: nil, problem: "cannot read the file: \(error.reason)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationFileError(path: path, line: nil, problem: "not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses configuration text; unknown keys are errors, so a typo never passes silently.
    public static func parse(_ text: String, path: String) throws(ConfigurationFileError) -> DaemonOptions {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch YamlError.duplicatedKeysInMapping(let duplicates, _) {
            throw duplicateSetting(duplicates.first ?? "?", in: text, path: path)
        } catch let error as YamlError {
            throw ConfigurationFileError(path: path, line: error.line, problem: notValidYAML(error, in: text))
        } catch {
            throw ConfigurationFileError(path: path, line: nil, problem: "not valid YAML: \(error)")
        }
        guard let node else { return DaemonOptions() }
        guard let mapping = node.mapping else {
            throw ConfigurationFileError(
                path: path, line: node.mark.map { $0.line }, problem: "expected `key: value` lines at the top level")
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue) + [accelerometersKey])
        for (key, value) in mapping {
            guard let name = key.string, known.contains(name) else {
                let list = (CodingKeys.allCases.map(\.rawValue) + [accelerometersKey]).joined(separator: ", ")
                throw ConfigurationFileError(
                    path: path, line: key.mark.map { $0.line },
                    problem: "unknown setting “\(key.string ?? "?")”; known settings: \(list)")
            }
            // YAML reads `sound-device:` with nothing after it as no value at all, which would leave the default
            // in place without a word.
            if let scalar = value.scalar, scalar.style == .plain,
                ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            {
                throw ConfigurationFileError(
                    path: path, line: key.mark.map { $0.line },
                    problem: "“\(name)” has no value: write one after the colon, or remove the line for the default")
            }
            // YAML 1.1 reads more than decimal digits as a number (`0x10` is 16, `.inf`, `1_000`), as `Double(_:)`
            // does on the command line, where such a value is refused too.
            // And more than true and false as a boolean (`yes`, `on`, `y`), which the error for a wrong one names.
            let isNumber = [CodingKeys.earlyPressLockout.rawValue, CodingKeys.reorderWindow.rawValue].contains(name)
            if let scalar = value.scalar,
                isNumber && DecimalText.number(scalar.string) == nil
                    || name == CodingKeys.grabKeyboards.rawValue && !["true", "false"].contains(scalar.string)
            {
                throw ConfigurationFileError(
                    path: path, line: key.mark.map { $0.line }, problem: badValue(key: name, value: value))
            }
        }
        var settings: DaemonOptions
        do {
            settings = try YAMLDecoder().decode(DaemonOptions.self, from: node)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.first?.stringValue ?? "?"
            let entry = mapping.first { $0.key.string == key }
            throw ConfigurationFileError(
                path: path, line: entry?.key.mark.map { $0.line }, problem: badValue(key: key, value: entry?.value))
        } catch {
            throw ConfigurationFileError(path: path, line: nil, problem: "\(error)")
        }
        if let problem = settings.problem {
            let line = mapping.first { $0.key.string == problem.key.rawValue }?.key.mark.map { $0.line }
            throw ConfigurationFileError(path: path, line: line, problem: problem.message)
        }
        if settings.input != nil, let entry = mapping.first(where: { $0.key.string == CodingKeys.input.rawValue }) {
            settings.inputPlace = ConfigurationFilePlace(path: path, line: entry.key.mark.map { $0.line })
        }
        if let list = mapping.first(where: { $0.key.string == accelerometersKey }) {
            settings.accelerometers = try accelerometers(list.value, key: list.key, path: path)
        }
        return settings.resolvingPaths(against: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// These options with each relative path they hold (`socket`, `state-dir`, `sounds`, the file of a `trace:`
    /// input) made absolute against `folder`, the configuration file's: the file means the paths beside it, whatever
    /// folder the daemon runs in (systemd starts it in `/`). Paths given as flags stay relative to the working folder.
    func resolvingPaths(against folder: String) -> DaemonOptions {
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") || path.isEmpty
                ? path
                : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
                    .standardizedFileURL.path
        }
        var options = self
        options.socket = socket.map(absolute)
        options.stateDirectory = stateDirectory.map(absolute)
        options.sounds = sounds.map(absolute)
        // A spec that does not read is left as written, for the check of the settings to refuse.
        if let input, case .trace(let file, let speed, let loop)? = try? InputSpec(parsing: input) {
            options.input = InputSpec.trace(path: absolute(file), speed: speed, loop: loop).description
        }
        return options
    }

    /// What is wrong with text YAML could not read, in one line that the file's path and line start (the library's
    /// own message repeats the position over three lines and quotes the file), with what to do about a tab.
    static func notValidYAML(_ error: YamlError, in text: String) -> String {
        guard let problem = error.problem else { return "not valid YAML: \(error)" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = error.line.flatMap { lines.indices.contains($0 - 1) ? lines[$0 - 1] : nil }
        guard line?.contains("\t") == true else { return "not valid YAML: \(problem)" }
        return "not valid YAML: \(problem); the line holds a tab: indent with spaces only"
    }

    /// A setting given twice, said at its second line (YAML's own error points at the first, with the file's text).
    static func duplicateSetting(_ key: String, in text: String, path: String) -> ConfigurationFileError {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { _, line in
            line.hasPrefix(key) && line.dropFirst(key.count).trimmingPrefix(while: { $0 == " " }).hasPrefix(":")
        }
        guard lines.count >= 2 else {
            return ConfigurationFileError(path: path, line: nil, problem: "“\(key)” is set more than once; keep one")
        }
        return ConfigurationFileError(
            path: path, line: lines[1].offset + 1,
            problem: "“\(key)” is set again (first on line \(lines[0].offset + 1)); keep one")
    }

    /// What a value the decoder could not take should have been, in the words of the other checks ("reorder-window
    /// must be a whole number of milliseconds from 10 to 200, not “40ms”"), never the decoder's own.
    static func badValue(key: String, value: Node?) -> String {
        let given =
            if let scalar = value?.scalar { "“\(scalar.string)”" } else if value?.sequence != nil { "a list" } else {
                "a group of settings"
            }
        let range = DaemonConfiguration.reorderWindowRange
        let expected =
            switch CodingKeys(rawValue: key) {
            case .logLevel?: Logger.Level.allCases.map(\.rawValue).spokenList("or")
            case .grabKeyboards?: "true or false"
            case .reorderWindow?: "a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)"
            case .earlyPressLockout?: "a number of seconds from 0 to 60"
            default: "one value"
            }
        return "\(key) must be \(expected), not \(given)"
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
                // An unknown kind's problem already lists the forms, but not the two that only the daemon takes.
                let forms = "auto, iio[:NAME], evdev[:PATH], trace:FILE[,speed=max][,loop], demo or none"
                let problem = error.isUnknownKind ? "there is no input of that kind" : error.problem
                return (.input, "input “\(input)” cannot be used: \(problem); use \(forms)")
            }
        }
        if let buzzers, !["auto", "none"].contains(buzzers) {
            return (.buzzers, "buzzers must be auto or none, not “\(buzzers)”")
        }
        if let shakers, !["auto", "none"].contains(shakers) {
            return (.shakers, "shakers must be auto or none, not “\(shakers)”")
        }
        if let earlyPressLockout, !(0...60).contains(earlyPressLockout) {
            return (
                .earlyPressLockout,
                "early-press-lockout must be 0 to 60 seconds, not \(DecimalText.said(earlyPressLockout, outside: 0...60))"
            )
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
    /// The problem alone, without the position and the quoted text.
    fileprivate var problem: String? {
        switch self {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            problem
        default:
            nil
        }
    }

    fileprivate var line: Int? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            mark.line
        default:
            nil
        }
    }
}

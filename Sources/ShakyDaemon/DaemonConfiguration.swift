import Foundation
import Logging
import ShakyCore
import ShakyDrivers

/// The daemon's options with every default filled in: what it actually runs with.
public struct DaemonConfiguration: Equatable, Sendable {
    /// The Varlink socket path.
    public var socketPath: String
    /// The folder holding `shaky.sqlite`.
    public var stateDirectory: String
    /// The accelerometer input specification.
    public var input: String
    /// Where the configuration file set ``input``; `nil` when `--input` or the default did.
    public var inputPlace: ConfigurationFilePlace?
    /// The ALSA PCM name.
    public var soundDevice: String
    /// A folder of replacement cue files, if any.
    public var soundsDirectory: String?
    /// The lowest level logged.
    public var logLevel: Logger.Level
    /// The shake detector preset name.
    public var sensitivity: String
    /// Whether the preset was given (`--sensitivity` or the file's `sensitivity:`), not the default.
    public var sensitivityGiven: Bool = false
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

    /// The host's descriptions of input accelerometers shakyd does not know (the file's `accelerometers:`).
    public var accelerometers: [AccelerometerDescription] = []

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
    public init(resolving settings: DaemonOptions, paths: DefaultPaths = DefaultPaths()) {
        socketPath = settings.socket ?? paths.daemonSocket
        let fallback = paths.fallbackSocketDirectory
        privateSocketDirectory = socketPath.hasPrefix(fallback + "/") ? fallback : nil
        stateDirectory = settings.stateDirectory ?? paths.stateDirectory
        input = settings.input ?? "auto"
        inputPlace = settings.input != nil ? settings.inputPlace : nil
        soundDevice = settings.soundDevice ?? "default"
        soundsDirectory = settings.sounds
        logLevel = settings.logLevel ?? .info
        sensitivity = settings.sensitivity ?? "medium"
        sensitivityGiven = settings.sensitivity != nil
        buzzers = settings.buzzers ?? "auto"
        earlyPressLockoutSeconds = settings.earlyPressLockout ?? 0
        grabKeyboards = settings.grabKeyboards ?? false
        reorderWindowMilliseconds = settings.reorderWindow ?? PressReorderWindow.standardMilliseconds
        shakers = settings.shakers ?? "auto"
        accelerometers = settings.accelerometers ?? []
    }
}

import ArgumentParser
import Foundation
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import SystemCalls

/// Loads the configuration file every `shakyd` subcommand reads.
enum ConfigurationFileLoading {
    /// The options in the file `--config` named, or in the system's file when there is one.
    ///
    /// A refused file is said on standard error (with `--config` when the file it named cannot be read at all) and
    /// ends the command with ``ShakydExitStatus/badConfiguration``.
    static func load(named config: String?) throws -> DaemonOptions {
        do {
            return try DaemonOptions.load(
                path: config ?? DefaultPaths.systemConfigurationFile, required: config != nil)
        } catch {
            let flag = config != nil && error.line == nil ? "--config " : ""
            StandardStreams.writeError("shakyd: \(flag)\(error)\n")
            throw ExitCode(ShakydExitStatus.badConfiguration.rawValue)
        }
    }

    /// The sensor a tool reads when `--input` is not given: the one the configuration file's `input` names, as
    /// `shakyd serve` would read it, with the file's line that names it, or `auto` when the file names none, the demo
    /// or no sensor (which only `shakyd serve` takes). Putting `auto` in place of the file's input is said on
    /// standard error, as `command`'s, so that what follows ("no accelerometer found for --input auto") is understood.
    static func sensorInput(
        given: InputSpec?, settings: DaemonOptions, command: String
    ) -> (spec: InputSpec, place: ConfigurationFilePlace?) {
        if let given { return (given, nil) }
        guard let text = settings.input else { return (.auto, nil) }
        guard let spec = try? InputSpec(parsing: text) else {
            let place = settings.inputPlace.map { ", set in \($0)," } ?? ""
            StandardStreams.writeError(
                "shakyd \(command): the input “\(TerminalText.printable(text))”\(place) is for shakyd serve only; "
                    + "reading --input auto instead (give --input to choose)\n")
            return (.auto, nil)
        }
        return (spec, settings.inputPlace)
    }
}

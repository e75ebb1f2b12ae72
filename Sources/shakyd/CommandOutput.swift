import ArgumentParser
import Glibc
import SystemCalls

/// What a tool of `shakyd` (`detect`, `list-devices`, `watch-buttons`) writes to standard output.
///
/// What cannot be written is lost (a full disk under `shakyd detect *.csv > triggers.csv`, a closed standard
/// output), which a script must hear of: the tool says so on standard error and ends with status 1. A reader that
/// went away (`| head`) ends it quietly.
enum CommandOutput {
    /// Writes `text`, or ends the command as above: throws the `ExitCode` it ends with.
    static func write(_ text: String, command: String) throws {
        guard let code = StandardStreams.writeOutput(text) else { return }
        throw ending(errno: code, command: command)
    }

    /// Writes `text`, or ends the process as ``write(_:command:)`` ends the command: for callbacks that cannot throw.
    static func writeOrExit(_ text: String, command: String) {
        guard let code = StandardStreams.writeOutput(text) else { return }
        exit(ending(errno: code, command: command).rawValue)
    }

    private static func ending(errno code: Int32, command: String) -> ExitCode {
        guard let lost = StandardStreams.outputLost(errno: code, by: "shakyd \(command)") else { return .success }
        StandardStreams.writeError(lost)
        return .failure
    }
}

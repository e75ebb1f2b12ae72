import ArgumentParser
import ShakyProtocol

/// The exit statuses of `shaky`.
public enum ShakyExitStatus: Int32, Sendable {
    /// Done.
    case success = 0
    /// The game, a pack or a file refused; the reason is on standard error.
    case failure = 1
    /// The command line is wrong.
    case usage = 2
    /// The daemon cannot be reached.
    case daemonUnreachable = 3
}

extension Shaky {
    /// Parses `arguments` (without the program name), runs the command, and returns the exit status.
    ///
    /// Unlike `main()`, usage errors exit with 2 (not 64), and errors from the daemon are printed as
    /// `shaky: message` with 1, or 3 when the daemon cannot be reached.
    public static func execute(_ arguments: [String]) async -> Int32 {
        let console = CurrentConsole.value
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            return report(error, on: console).rawValue
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ShakyExitStatus.success.rawValue
        } catch {
            return report(error, on: console).rawValue
        }
    }

    /// Prints what `error` means and says which exit status it gets.
    static func report(_ error: any Error, on console: any Console) -> ShakyExitStatus {
        switch error {
        case let error as ShakyClientError:
            console.printError("shaky: \(error)")
            switch error {
            case .daemonUnreachable, .connectionLost: return .daemonUnreachable
            case .refused, .protocolError: return .failure
            }
        case let error as CommandFailure:
            console.printError("shaky: \(error)")
            return .failure
        default:
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code.isSuccess {
                if !message.isEmpty { console.print(message) }
                return .success
            }
            if !message.isEmpty { console.printError(message) }
            return code == .validationFailure ? .usage : .failure
        }
    }
}

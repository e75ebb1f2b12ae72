import ArgumentParser
import Foundation
import ShakyCore
import ShakyProtocol
import SystemCalls

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
        if let shell = CompletionScript.requestedShell(in: arguments) {
            console.write(CompletionScript.text(for: shell) + "\n")
            return ShakyExitStatus.success.rawValue
        }
        if let unknown = unknownHelpTopic(in: arguments) {
            console.printError("shaky: \(unknown)")
            return ShakyExitStatus.usage.rawValue
        }
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(movingGlobalOptionsAfterTheSubcommand(arguments))
        } catch {
            if NegativeOptionValues.isMissingValue(message(for: error)),
                let joined = NegativeOptionValues.joined(arguments)
            {
                do {
                    command = try await asyncParseAsRoot(movingGlobalOptionsAfterTheSubcommand(joined))
                } catch {
                    return report(error, on: console).rawValue
                }
            } else if let unknown = unknownCommand(in: arguments, refusedAs: message(for: error)) {
                // Worded as the parser's usage errors are.
                console.printError("shaky: \(unknown)")
                return ShakyExitStatus.usage.rawValue
            } else if let negative = negativeID(in: arguments, refusedAs: message(for: error)) {
                console.printError("shaky: \(negative)")
                return ShakyExitStatus.usage.rawValue
            } else {
                return report(error, on: console).rawValue
            }
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

    /// What is wrong when the command's name is not one of `shaky`'s: `shaky overrule` names the command meant
    /// (`shaky judge overrule`), another word says it is no command; `nil` when the name is a command's (or there is
    /// none), so the parser's own message (a wrong option, a missing argument) stands. `message` is the parser's.
    static func unknownCommand(in arguments: [String], refusedAs message: String) -> String? {
        let words = movingGlobalOptionsAfterTheSubcommand(arguments)
        guard let name = words.first, !name.hasPrefix("-") else { return nil }
        let topLevel = Set(configuration.subcommands.map { $0._commandName } + ["help"])
        guard !topLevel.contains(name) else { return unknownSubcommand(in: words, refusedAs: message) }
        var nested: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: [String]) {
            for subcommand in command.configuration.subcommands {
                let subpath = path + [subcommand._commandName]
                if path.count > 0, subcommand._commandName == name { nested.append(subpath.joined(separator: " ")) }
                visit(subcommand, path: subpath)
            }
        }
        visit(Shaky.self, path: [])
        let printable = TerminalText.printable(name)
        if nested.count == 1 { return "There is no command “\(printable)”: did you mean `shaky \(nested[0])`?" }
        return noSuchCommand(name)
    }

    /// What is wrong when `words` name a command of commands (`shaky pack`) and then a word that is none of them
    /// (`shaky pack lst`), which the parser called only an unexpected argument; `nil` otherwise. A command that runs
    /// one of its own by default (`shaky buzzers`, which lists) gave the word to that one: it is no command only when
    /// the parser's `message` refused it as an unexpected argument there (`shaky buzzers frob`).
    static func unknownSubcommand(in words: [String], refusedAs message: String) -> String? {
        guard words.count >= 2, !words[1].hasPrefix("-"),
            let command = configuration.subcommands.first(where: { $0._commandName == words[0] }),
            !command.configuration.subcommands.isEmpty,
            command.configuration.defaultSubcommand == nil || message.contains("Unexpected argument '\(words[1])'")
        else { return nil }
        let names = command.configuration.subcommands.map { $0._commandName }
        guard !names.contains(words[1]) else { return nil }
        let typed = TerminalText.printable(words[0] + " " + words[1])
        if let closest = EditDistance.closest(to: words[1], among: names) {
            return "There is no command “\(typed)”: did you mean `shaky \(words[0]) \(closest)`?"
        }
        return "There is no command “\(typed)”; `shaky \(words[0]) --help` lists them."
    }

    /// What is wrong when an id or a key was refused as missing and a negative number was typed (`shaky history
    /// delete -1`, `shaky buzzers assign Owls kbd -1`): the parser takes `-1` for an option, and said only that the
    /// argument was missing; `nil` otherwise.
    static func negativeID(in arguments: [String], refusedAs message: String) -> String? {
        guard let negative = arguments.first(where: NegativeOptionValues.isNegativeNumber) else { return nil }
        let printable = TerminalText.printable(negative)
        if message.contains("Missing expected argument '<id>'") {
            return "“\(printable)” is no id: an id is a whole number from 1, as `shaky history` and `shaky pack show` "
                + "list them."
        }
        if message.contains("Missing expected argument '<key>'") {
            return "“\(printable)” is no key: a key is a name (KEY_SPACE, space, BTN_TRIGGER) or a code from 1."
        }
        return nil
    }

    /// What is said of `word` typed where a command's name goes and naming none.
    static func noSuchCommand(_ word: String) -> String {
        "There is no command “\(TerminalText.printable(word))”; `shaky --help` lists the commands."
    }

    /// What is wrong when `shaky help` is asked about a command there is not (`shaky help bogus`, `shaky help pack
    /// bogus`), which the parser answers with the help of the last command it knows; `nil` otherwise.
    static func unknownHelpTopic(in arguments: [String]) -> String? {
        let words = movingGlobalOptionsAfterTheSubcommand(arguments)
        guard words.first == "help" else { return nil }
        var command: any ParsableCommand.Type = Shaky.self
        for word in words.dropFirst() {
            guard !word.hasPrefix("-") else { break }
            guard let subcommand = command.configuration.subcommands.first(where: { $0._commandName == word }) else {
                return noSuchCommand(word)
            }
            command = subcommand
        }
        return nil
    }

    /// The global options (`--socket PATH`, `--json`) given before the subcommand, moved to where every
    /// subcommand takes them, so `shaky --socket P status` works like `shaky status --socket P`.
    static func movingGlobalOptionsAfterTheSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--json" || argument.hasPrefix("--socket=") {
                leading.append(argument)
                index += 1
            } else if argument == "--socket", index + 1 < arguments.endIndex {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        guard !rest.isEmpty, !rest[0].hasPrefix("-") else { return arguments }
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }

    /// The game rules as the daemon names them (the fields of `Rules`) and as the host typed them.
    static let ruleFlags = [
        "indicationTime": "--indication-time", "timeAfterFirstBuzz": "--time-after-first-buzz",
        "answerTime": "--answer-time", "basePoints": "--base-points", "pointsPerHint": "--points-per-hint",
        "minimumPoints": "--minimum-points", "maximumHints": "--maximum-hints", "hintCooldown": "--hint-cooldown",
    ]

    /// A refused game setup's message with each rule it names by its field (`setting answerTime`) named by the
    /// flag the host typed (`--answer-time`).
    static func namingFlags(in message: String) -> String {
        var message = message
        for (field, flag) in ruleFlags {
            message = message.replacingOccurrences(of: "setting " + field, with: flag)
            message = message.replacingOccurrences(of: field, with: flag)
        }
        return message
    }

    /// The parser's message (`Error: Missing expected argument…`) headed `shaky:` as every other failure is, so that a
    /// script's log says which program spoke; its `Usage:` and `Help:` lines follow as they are.
    static func programPrefixed(_ message: String) -> String {
        message.hasPrefix("Error: ") ? "shaky: " + message.dropFirst("Error: ".count) : message
    }

    /// Prints what `error` means and says which exit status it gets.
    static func report(_ error: any Error, on console: any Console) -> ShakyExitStatus {
        switch error {
        case let error as ShakyClientError:
            let message = error.refusalName == "InvalidSetup" ? namingFlags(in: error.description) : error.description
            console.printError("shaky: \(message)")
            switch error {
            case .daemonUnreachable, .connectionLost: return .daemonUnreachable
            case .refused, .protocolError, .newerDaemon: return .failure
            }
        case let error as CommandFailure:
            console.printError("shaky: \(error)")
            return .failure
        case let error as FileAccessError:
            console.printError("shaky: \(error)")
            return .failure
        case let error as CocoaError:
            // A Foundation error no command turned into words: its reason, never its domain and code.
            console.printError("shaky: \(FileAccess.reason(error))")
            return .failure
        default:
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code.isSuccess {
                if !message.isEmpty { console.print(message) }
                return .success
            }
            if !message.isEmpty { console.printError(programPrefixed(message)) }
            return code == .validationFailure ? .usage : .failure
        }
    }
}

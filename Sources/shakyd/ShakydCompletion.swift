import ArgumentParser

/// The command tree the completion scripts are made from: `shakyd` with serve's options at its top, as the program
/// takes them there (`shakyd --input demo`), and the same subcommands.
///
/// argument-parser completes a default subcommand's options only after its name: after `shakyd` alone the scripts
/// offered `--help` and `--version`, and the subcommands' names as `--log-level`'s values.
struct ShakydCompletion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shakyd", version: Shakyd.configuration.version, subcommands: Shakyd.configuration.subcommands)

    @OptionGroup var serve: ServeOptions

    /// Whether `arguments` ask for a completion script (`--generate-completion-script [SHELL]`).
    static func isScriptRequest(_ arguments: [String]) -> Bool {
        arguments.first?.hasPrefix("--generate-completion-script") == true
    }

    /// Prints the script `arguments` ask for, or says what is wrong with them, and exits.
    static func printScript(_ arguments: [String]) -> Never {
        do {
            _ = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        exit(withError: ValidationError("--generate-completion-script needs a shell: bash, zsh or fish"))
    }
}

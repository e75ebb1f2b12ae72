import ArgumentParser
import Foundation

/// The shell completion scripts `shaky --generate-completion-script SHELL` prints: swift-argument-parser's, with an
/// option's value given after `=` (`--socket=/run/party.sock`) read as it is in a command line.
///
/// As generated, bash's script read `--socket=PATH` (which bash hands over as three words, split at the `=`) as
/// `--socket` with the value `=` and then PATH where the command goes, so nothing after it completed; zsh's took
/// `--socket=PATH` for an option it does not know. Either way, a command line that names its daemon so got no team
/// or pack names.
enum CompletionScript {
    /// The script for `shell`: the generated one, read-alike for bash and zsh.
    static func text(for shell: CompletionShell) -> String {
        let generated = Shaky.completionScript(for: shell)
        switch shell {
        case .bash: return joiningBashWordsAtEquals(generated)
        case .zsh: return takingValuesAfterEquals(generated)
        default: return generated
        }
    }

    /// The shell named by `arguments`, when they ask for a completion script (`--generate-completion-script SHELL`
    /// or `=SHELL`, or the login shell's without one) and the shell is one of those known; otherwise the parser
    /// answers as usual.
    static func requestedShell(
        in arguments: [String], loginShell: @autoclosure () -> CompletionShell? = CompletionShell.autodetected()
    ) -> CompletionShell? {
        let option = "--generate-completion-script"
        guard let first = arguments.first else { return nil }
        if first == option, arguments.count == 1 { return loginShell() }
        if first == option, arguments.count == 2 { return CompletionShell(rawValue: arguments[1]) }
        if first.hasPrefix(option + "="), arguments.count == 1 {
            return CompletionShell(rawValue: String(first.dropFirst(option.count + 1)))
        }
        return nil
    }

    /// The bash script with its completion function called on the words bash gives, an option's `=` and value
    /// joined back to it where they are wholly before the word being completed.
    static func joiningBashWordsAtEquals(_ script: String) -> String {
        let registration = "complete -o filenames -F _shaky shaky"
        guard script.contains(registration) else { return script }
        let wrapper = #"""
            # bash splits `--socket=PATH` into three words at the `=` (COMP_WORDBREAKS): join them again, or the
            # function above reads `=` as the value and PATH where the command goes. A value being typed after the `=`
            # is completed as the option's value.
            _shaky_joining_equals() {
                local -a joined=()
                local -i index=0 current="${COMP_CWORD}"
                while ((index < ${#COMP_WORDS[@]})); do
                    local word="${COMP_WORDS[index]}"
                    if [[ "${word}" != --* || "${COMP_WORDS[index + 1]-}" != = ]] || ((index + 1 > COMP_CWORD)); then
                        joined+=("${word}")
                        ((index += 1))
                    elif ((index + 2 < COMP_CWORD)); then
                        joined+=("${word}=${COMP_WORDS[index + 2]}")
                        ((index += 3, current -= 2))
                    elif ((index + 2 == COMP_CWORD)); then
                        joined+=("${word}")
                        ((index += 2, current -= 1))
                    else
                        joined+=("${word}" "")
                        ((index += 2))
                    fi
                done
                local -a COMP_WORDS=("${joined[@]}")
                local -i COMP_CWORD="${current}"
                _shaky "${1}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            }

            complete -o filenames -F _shaky_joining_equals shaky
            """#
        return script.replacingOccurrences(of: registration, with: wrapper)
    }

    /// The zsh script with every option that takes a value declared `--name=`, which zsh's `_arguments` reads both as
    /// `--name VALUE` and as `--name=VALUE`.
    static func takingValuesAfterEquals(_ script: String) -> String {
        // An option's spec: `'--name[description]:message:action'` (a flag's has no `:` after its description, whose
        // own colons are escaped; `*` in front when it repeats).
        guard let spec = try? NSRegularExpression(pattern: #"(?m)^(\s*'\*?--[A-Za-z0-9-]+)(\[.*\]:)"#) else {
            return script
        }
        let whole = NSRange(script.startIndex..., in: script)
        return spec.stringByReplacingMatches(in: script, range: whole, withTemplate: "$1=$2")
    }
}

import ArgumentParser
import Foundation
import Testing

@testable import ShakyCLI

/// What `shaky --help` (and so each man page) says of every command: what it does, more where it is not obvious,
/// examples that the parser takes, and options whose values say what they are.
@Suite struct HelpTextTests {
    /// Every command of `shaky` with the words that name it (`["pack", "import"]`; `[]` for `shaky` itself).
    static func commands() -> [(path: [String], type: any ParsableCommand.Type)] {
        var found: [(path: [String], type: any ParsableCommand.Type)] = []
        func visit(_ type: any ParsableCommand.Type, path: [String]) {
            found.append((path, type))
            for subcommand in type.configuration.subcommands {
                visit(subcommand, path: path + [subcommand._commandName])
            }
        }
        visit(Shaky.self, path: [])
        return found
    }

    /// The lines of a discussion's EXAMPLES section, up to the blank line that ends it.
    static func exampleLines(in discussion: String) -> [String] {
        let lines = discussion.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "EXAMPLES:") else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The commands of an EXAMPLES section: its lines indented by two spaces, a line ending in ` \` joined with the
    /// next.
    static func exampleCommands(in discussion: String) -> [String] {
        var commands: [String] = []
        var continued = false
        for line in exampleLines(in: discussion) where line.hasPrefix("  ") {
            var text = line.trimmingCharacters(in: .whitespaces)
            let continues = text.hasSuffix(" \\")
            if continues { text.removeLast(2) }
            if continued { commands[commands.count - 1] += " " + text } else { commands.append(text) }
            continued = continues
        }
        return commands
    }

    /// `command` split into words as a shell splits it (single and double quotes, no expansions).
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case " ":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The arguments `shaky` gets in an example's command line (after a pipe, before a redirection), or `nil` when
    /// the line runs no `shaky` (`sudo systemctl …`).
    static func shakyArguments(in command: String) -> [String]? {
        let words = shellWords(command)
        let afterPipe = words.lastIndex(of: "|").map { Array(words[($0 + 1)...]) } ?? words
        let invocation = afterPipe.prefix { !["<", ">", "|", "&&", ";"].contains($0) }
        guard invocation.first == "shaky" else { return nil }
        return Array(invocation.dropFirst())
    }

    @Test func everyCommandSaysWhatItDoesInOneLineAndMoreInItsDiscussion() {
        for (path, type) in Self.commands() {
            let name = (["shaky"] + path).joined(separator: " ")
            let configuration = type.configuration
            #expect(!configuration.abstract.isEmpty, "\(name) has no abstract")
            #expect(configuration.abstract.hasSuffix("."), "\(name): \(configuration.abstract)")
            #expect(!configuration.abstract.contains("\n"), "\(name): \(configuration.abstract)")
            #expect(!configuration.discussion.isEmpty, "\(name) has no discussion")
            // An example is in the EXAMPLES section, where the man page shows it as typed, not in a sentence.
            #expect(!configuration.discussion.contains("Example:"), "\(name): \(configuration.discussion)")
        }
    }

    @Test func everyExampleInTheHelpIsACommandLineTheParserTakes() throws {
        var examples = 0
        for (path, type) in Self.commands() {
            let name = (["shaky"] + path).joined(separator: " ")
            let discussion = type.configuration.discussion
            for line in discussion.components(separatedBy: "\n") where line.hasPrefix("  ") {
                // At 80 columns `--help` never wraps a line set out as typed (an example, a table of commands):
                // a wrapped command could not be pasted, a wrapped row breaks its table.
                #expect(line.count <= 79, "\(name): a line set out is wider than the help: \(line)")
            }
            for command in Self.exampleCommands(in: discussion) {
                guard let arguments = Self.shakyArguments(in: command) else { continue }
                examples += 1
                do {
                    _ = try Shaky.parseAsRoot(arguments)
                } catch {
                    Issue.record("\(name): `\(command)` does not parse: \(Shaky.fullMessage(for: error))")
                }
            }
        }
        // The project's commands carry dozens; a section the extraction misread would show here.
        #expect(examples >= 40, "only \(examples) examples found")
        #expect(
            Self.shakyArguments(in: #"printf 'n\nq\n' | shaky play --team "Les Éléphants" --team Owls"#)
                == ["play", "--team", "Les Éléphants", "--team", "Owls"])
        #expect(
            Self.shakyArguments(in: "shaky pack import - --format json < pack.json")
                == ["pack", "import", "-", "--format", "json"])
        #expect(Self.shakyArguments(in: "sudo systemctl start shakyd.socket") == nil)
    }

    @Test func theShellCompletionsOfferTheDaemonsTeamsAndPacksWhereACommandTakesOne() {
        let bash = Shaky.completionScript(for: .bash)
        /// The body of the bash function that completes `shaky WORDS…`.
        func function(_ words: String) -> String {
            let name = "_shaky_" + words.replacingOccurrences(of: " ", with: "_") + "() {"
            guard let start = bash.range(of: name) else { return "" }
            let rest = bash[start.upperBound...]
            return String(rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)])
        }
        // The names come from the daemon through shaky itself (ShellCompletionTests runs it).
        for command in [
            "buzz", "answer", "score", "judge undo-buzz", "buzzers join", "buzzers assign", "buzzers clear", "new",
            "play", "pack show", "pack search", "pack export", "pack delete", "pack add",
        ] {
            #expect(function(command).contains("---completion"), "shaky \(command): \(function(command))")
        }
        // An option that takes one of a few values offers them.
        #expect(function("new").contains("'any'"), "\(function("new"))")
        #expect(function("settings").contains("'light'"), "\(function("settings"))")
    }

    @Test func everyOptionNamesItsValueForWhatItIs() {
        for (path, type) in Self.commands() {
            let name = (["shaky"] + path).joined(separator: " ")
            let lines = type.helpMessage(columns: 400).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let words = line.split(separator: " ")
                guard line.hasPrefix("  --"), words.count >= 2, words[1].hasPrefix("<") else { continue }
                let option = words[0].dropFirst(2)
                let value = words[1].dropFirst().dropLast()
                // `--limit <limit>` says nothing; `--difficulty <difficulty>` is fine where its values are listed
                // (under the option's help, which a long option has on a line of its own), and so is `--name <name>`.
                let listsItsValues = lines.dropFirst(index + 1).prefix(2).contains { $0.contains(" - ") }
                #expect(option != value || listsItsValues || option == "name", "\(name): \(line)")
            }
        }
    }
}

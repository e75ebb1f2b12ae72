import Foundation
import ShakyTesting
import Testing

@testable import ShakyCLI

/// The completion scripts `shaky --generate-completion-script` writes, run by bash, fish and zsh themselves against a
/// real `shakyd`: team and pack names come from the daemon the command line names.
@Suite("Shell completion of names the daemon knows", .serialized)
struct ShellCompletionTests {
    /// What bash's completion of `words` (the last one being completed; `--socket=PATH` as bash splits it, three
    /// words) offers, with the function the script `shaky` generates registers.
    private func bashCompletions(_ words: [String], home: String) async throws -> [String] {
        let shaky = try BuiltProduct.path("shaky")
        let script = try await runBinary(["--generate-completion-script", "bash"]).output
        // COMP_WORDS[0] is the program the script runs to ask for names: the built one, not one on PATH.
        let program = """
            \(script)
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            registered=$(complete -p shaky); registered=${registered##* -F }; registered=${registered%% *}
            "$registered" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try await lines(
            of: ChildProcess(
                "/bin/bash", ["--norc", "--noprofile", "-c", program, "bash", shaky] + words,
                environment: Self.environment(home: home)))
    }

    /// Runs `shell` in a terminal with `shaky` on its PATH, `home` as its home and only the socket the command line
    /// names to reach a daemon; runs `setup` in it, then types `line` and Tab, and returns the screen once `shown`
    /// holds for it (fish and zsh complete at a terminal only: fish's `complete --do-complete` has no cursor).
    private func completionAtATerminal(
        shell: [String], setup: String, line: String, home: String, until shown: @escaping (String) -> Bool
    ) async throws -> String {
        let bin = home + "/bin"
        if !FileManager.default.fileExists(atPath: bin + "/shaky") {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: bin + "/shaky", withDestinationPath: BuiltProduct.path("shaky"))
        }
        return try await TerminalSession.run(
            ["/usr/bin/env", "PATH=\(bin):/usr/bin:/bin"] + shell, in: URL(fileURLWithPath: home),
            serverEnvironment: Self.environment(home: home), columns: 120, rows: 20
        ) { terminal in
            try await terminal.type(setup, "Enter")
            try await terminal.type(line, "Tab")
            return try await terminal.screen(until: shown)
        }
    }

    /// No `SHAKY_SOCKET` and no user's daemon: only the socket the command line names can answer.
    private static func environment(home: String) -> [String: String?] {
        ["SHAKY_SOCKET": nil, "XDG_RUNTIME_DIR": home, "HOME": home]
    }

    private func lines(of child: ChildProcess) async throws -> [String] {
        let exit = try await child.waitForExit(within: .seconds(30))
        #expect(exit == .exited(0), "\(child.standardError)")
        #expect(child.standardError.isEmpty, "a completion writes nothing over the line being typed")
        return child.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("bash offers the game's teams and the packs of the daemon --socket names, filtered by what was typed")
    func bashOffersTheNamesOfTheDaemonTheLineNames() async throws {
        try await DaemonProcess.withRunning { daemon in
            let home = daemon.folder.path
            let new = try await runBinary(
                ["--socket", daemon.socketPath, "new", "--team", "Snow Owls", "--team", "Foxes", "--team", "Bears"])
            #expect(new.status == 0, "\(new)")

            let teams = try await bashCompletions(["--socket", daemon.socketPath, "buzz", ""], home: home)
            #expect(teams == ["Snow Owls", "Foxes", "Bears"])
            let typed = try await bashCompletions(["score", "--socket", daemon.socketPath, "Sn"], home: home)
            #expect(typed == ["Snow Owls"])
            // The option after the subcommand, and the socket given from the home folder as a shell would.
            let relative = "~/" + String(daemon.socketPath.dropFirst(home.count + 1))
            let after = try await bashCompletions(["answer", "--socket", relative, "F"], home: home)
            #expect(after == ["Foxes"])

            let packs = try await bashCompletions(["--socket", daemon.socketPath, "pack", "show", ""], home: home)
            #expect(packs.contains("Places with Accents"), "\(packs)")
            #expect(!packs.contains("Snow Owls"))

            // `--socket=PATH`, which bash splits at the `=`, before the command and after it.
            let joined = try await bashCompletions(["--socket", "=", daemon.socketPath, "buzz", ""], home: home)
            #expect(joined == ["Snow Owls", "Foxes", "Bears"])
            let joinedAfter = try await bashCompletions(["score", "--socket", "=", daemon.socketPath, "F"], home: home)
            #expect(joinedAfter == ["Foxes"])
            // A value typed after an option's `=` is completed as that option's.
            let packAfterEquals = try await bashCompletions(
                ["--socket", "=", daemon.socketPath, "new", "--team", "=", "Owls", "--pack", "=", "Sc"], home: home)
            #expect(packAfterEquals == ["Science"])
            let commands = try await bashCompletions(["--socket", "=", daemon.socketPath, "bu"], home: home)
            #expect(commands == ["buzz", "buzzers"])

            // No daemon there: nothing is offered, and nothing is printed on the terminal.
            let nowhere = try await bashCompletions(["--socket", home + "/no.sock", "buzz", ""], home: home)
            #expect(nowhere.isEmpty)
            // A socket that takes the connection and never answers (systemd's, for a daemon that fails to start):
            // nothing, after Completions.patience, not after a command's 60 s (lines(of:) waits 30 s at most).
            let silent = try ChildProcess(
                "/usr/bin/systemd-socket-activate", ["-l", home + "/silent.sock", "--", "/bin/sleep", "600"])
            defer { silent.send(SIGKILL) }
            try await silent.wait(for: "the socket that never answers", within: .seconds(20)) {
                silent.standardError.contains("Listening on")
            }
            let unanswered = try await bashCompletions(["--socket", home + "/silent.sock", "buzz", ""], home: home)
            #expect(unanswered.isEmpty)
        }
    }

    @Test("bash offers names with quotes, dollars and a command substitution as they are, and runs nothing")
    func bashTakesNamesAsText() async throws {
        try await DaemonProcess.withRunning { daemon in
            let home = daemon.folder.path
            let marker = home + "/ran"
            let substitution = "$(touch \(marker))"
            let new = try await runBinary(
                ["--socket", daemon.socketPath, "new", "--team", "O'Brien", "--team", "Cash$HOME", "--team", #"A"B\C"#])
            #expect(new.status == 0, "\(new)")
            let pack = try await runBinary(["--socket", daemon.socketPath, "pack", "create", substitution])
            #expect(pack.status == 0, "\(pack)")

            let teams = try await bashCompletions(["--socket", daemon.socketPath, "buzz", ""], home: home)
            #expect(teams == ["O'Brien", "Cash$HOME", #"A"B\C"#])
            let packs = try await bashCompletions(["--socket", daemon.socketPath, "pack", "show", ""], home: home)
            #expect(packs.contains(substitution), "\(packs)")
            #expect(!FileManager.default.fileExists(atPath: marker), "a name is text, never a command bash runs")
        }
    }

    @Test("fish and zsh at a terminal offer the game's teams and the packs of the daemon --socket names")
    func fishAndZshOfferTheNamesOfTheDaemonTheLineNames() async throws {
        try await DaemonProcess.withRunning { daemon in
            let home = daemon.folder.path
            let new = try await runBinary(
                ["--socket", daemon.socketPath, "new", "--team", "Snow Owls", "--team", "Foxes"])
            #expect(new.status == 0, "\(new)")
            let fish = home + "/shaky.fish"
            try await runBinary(["--generate-completion-script", "fish"]).output.write(
                toFile: fish, atomically: true, encoding: .utf8)
            let zshFolder = home + "/zsh"
            try FileManager.default.createDirectory(atPath: zshFolder, withIntermediateDirectories: true)
            try await runBinary(["--generate-completion-script", "zsh"]).output.write(
                toFile: zshFolder + "/_shaky", atomically: true, encoding: .utf8)
            let shells: [(name: String, command: [String], setup: String)] = [
                ("fish", ["fish", "--no-config"], "source \(fish)"),
                ("zsh", ["zsh", "-f"], "fpath=(\(zshFolder) $fpath); autoload -U compinit; compinit -u"),
            ]
            for shell in shells {
                let teams = try await completionAtATerminal(
                    shell: shell.command, setup: shell.setup, line: "shaky --socket \(daemon.socketPath) buzz ",
                    home: home, until: { $0.contains("Snow Owls") && $0.contains("Foxes") })
                #expect(teams.contains("Snow Owls") && teams.contains("Foxes"), "\(shell.name): \(teams)")
                let joined = try await completionAtATerminal(
                    shell: shell.command, setup: shell.setup, line: "shaky --socket=\(daemon.socketPath) buzz ",
                    home: home, until: { $0.contains("Snow Owls") && $0.contains("Foxes") })
                #expect(joined.contains("Snow Owls") && joined.contains("Foxes"), "\(shell.name): \(joined)")
                // One name fits what was typed: it is written in, quoted for the shell.
                let pack = try await completionAtATerminal(
                    shell: shell.command, setup: shell.setup,
                    line: "shaky pack show --socket \(daemon.socketPath) Pla", home: home,
                    until: { $0.contains("Places\\ with\\ Accents") })
                #expect(pack.contains("Places\\ with\\ Accents"), "\(shell.name): \(pack)")
            }
        }
    }

    @Test("A completion script is asked for as swift-argument-parser reads it: the shell after a space or =, or none")
    func completionScriptRequests() {
        let option = "--generate-completion-script"
        #expect(CompletionScript.requestedShell(in: [option, "bash"]) == .bash)
        #expect(CompletionScript.requestedShell(in: [option + "=zsh"]) == .zsh)
        #expect(CompletionScript.requestedShell(in: [option], loginShell: .fish) == .fish)
        // The parser's own answer: an unknown shell, no login shell it knows, more words, another command.
        #expect(CompletionScript.requestedShell(in: [option, "tcsh"]) == nil)
        #expect(CompletionScript.requestedShell(in: [option], loginShell: nil) == nil)
        #expect(CompletionScript.requestedShell(in: [option, "bash", "buzz"]) == nil)
        #expect(CompletionScript.requestedShell(in: ["buzz", option, "bash"]) == nil)
        #expect(CompletionScript.requestedShell(in: []) == nil)
    }

    @Test("zsh's script declares every option that takes a value as --name=, a flag as it was")
    func zshOptionsTakeValuesAfterEquals() {
        let script = CompletionScript.text(for: .zsh)
        #expect(script.contains("'--socket=[The daemon"))
        #expect(script.contains("'*--team=[A team"))
        #expect(script.contains("'--json[Print") && !script.contains("'--json=["))
    }

    @Test(
        "The socket a command line names is its last --socket before a --, with ~/ read as the home folder",
        arguments: [
            (["shaky", "--socket", "/a.sock", "buzz", ""], "/a.sock"),
            (["shaky", "buzz", "--socket=/b.sock", "O"], "/b.sock"),
            (["shaky", "--socket", "=", "/b.sock", "buzz", "O"], "/b.sock"),
            (["shaky", "--socket", "/a.sock", "buzz", "--socket", "/c.sock", ""], "/c.sock"),
            (["shaky", "--socket", "~/shaky.sock", "buzz", ""], "/home/host/shaky.sock"),
            (["shaky", "buzz", "--", "--socket", "/d.sock"], nil),
            (["shaky", "buzz", "--socket"], nil),
            (["shaky", "buzz", "--socket", ""], nil),
            (["shaky", "buzz", "--socket="], nil),
            (["shaky", "buzz", "--socket", "="], nil),
            (["shaky", "buzz", ""], nil),
        ] as [([String], String?)])
    func socketNamedOnTheLine(words: [String], socket: String?) {
        #expect(Completions.socket(in: words, home: "/home/host") == socket)
    }
}

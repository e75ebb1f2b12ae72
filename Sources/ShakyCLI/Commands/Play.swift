import ArgumentParser
import Foundation
import ShakyCore
import ShakyProtocol
import Synchronization
import SystemCalls

extension Shaky {
    /// `shaky play`: the host's interactive mode.
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Host a game interactively: see the letters and countdown, type one-letter commands.",
            discussion: """
                Shows every question, hint, buzz and answer as it happens, and reads one command per line:

                  n            open the next question
                  h            reveal a letter (as a shake does)
                  b TEAM, 1-8  buzz for a team, by name or number
                  a ANSWER     answer for the team that is up
                  + TEAM N     add N points to a team (a reason may follow)
                  - TEAM N     take N points from a team (a reason may follow)
                  o            overrule the last judgement: right, or wrong, after all
                  u TEAM       take back a team's buzz
                  j            teams join by pressing their buttons, one after another
                  p            pause, or resume
                  s            skip the question
                  e            end the game (asks first: y on the next line ends it; any
                               other line, a command too, goes on without running it)
                  t, st        show the scoreboard, the status
                  w SECONDS    wait (for scripts)
                  ?            list the commands
                  q            leave (the game goes on in the daemon)

                Once the game is over, + and - and o still work until a new game starts: they correct the \
                result ("Result corrected: won by …") and the game's line in the history.

                Commands come from the terminal, a pipe or --script FILE (lines may end in LF, CRLF or CR); \
                the session ends at q or at the end of the input (Ctrl-D on an empty line). On a terminal the \
                countdown keeps the line above the prompt and never touches what you type; a line longer than \
                the screen scrolls sideways, and it is edited as in bash: Left, Right, Home, End, Backspace, \
                Delete, Ctrl-U, Ctrl-K, Ctrl-W, and Up and Down for the lines typed before. With --team \
                options, a new game starts first (the other game options are those of `shaky new`).

                A command that fails (unknown, or refused by the game) is printed and the session goes on. \
                From a script or a pipe, the exit status is then 1 and the last message names the lines that \
                failed; at a terminal the host has seen each one, and q exits with 0.

                When the daemon restarts, play says so ("Lost the daemon at PATH: reconnecting…", also on the \
                countdown's line), tries again after 0.25 s, doubling up to 5 s, and once it is back says \
                "Reconnected" and shows the game as it stands. At a terminal a command typed meanwhile is \
                refused and play goes on; from a script or a pipe it ends play with exit status 3. An event a \
                newer daemon sends with a kind or value this shaky does not know is skipped, and said once per \
                value ("! skipping events with event.kind “…”").

                Press to join (j, or `shaky buzzers join` elsewhere): the team asked is shown as "Owls: press \
                your button" (on a terminal it stays on the line above the prompt) until it has pressed; then \
                the next team is asked. `shaky buzzers clear` stops a joining.

                Teams answer in buzz order once buzzing is over: every team has buzzed, or the time is up. \
                So with two teams both buzz before the first answers.

                EXAMPLES:
                A new game for two teams, hosted from a script read on standard input:
                  printf 'n\\nw 3\\nb 1\\nb 2\\na tiger\\nq\\n' | shaky play --team Owls --team Foxes
                Host the game in play from a file of commands:
                  shaky play --script party.txt
                """)

        @Option(
            help: ArgumentHelp("Read the commands from this file instead of standard input.", valueName: "file"),
            completion: .file())
        var script: String?

        @OptionGroup(title: "New game") var setup: GameSetupOptions
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let console = CurrentConsole.value
            let commands: AsyncStream<String>?
            if let script {
                let data: Data
                do {
                    data = try FileAccess.read(script, waitingForAWriter: true)
                } catch {
                    throw CommandFailure("cannot read --script \(script): \(error.reason)")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw CommandFailure("--script \(script) is not UTF-8 text; save it as UTF-8")
                }
                commands = InputLines.lines(of: text)
            } else {
                commands = nil  // Standard input, read once it is known whether it is the terminal of the screen.
            }
            let standardInput = Mutex<InputLines.StandardInput?>(nil)
            let failedLines = try await global.withClient { client in
                if !setup.teams.isEmpty {
                    _ = try await client.startGame(setup.request, orReplaceWith: "shaky play --replace --team …")
                }
                let screen = script == nil && !global.json ? PlayScreen.current() : nil
                // At a terminal the prompt row is edited key by key, so that what the host types stays on it.
                let prompt = screen.flatMap { PromptLineInput(screen: $0, console: console) }
                let endings = screen.flatMap { Self.givingTheScreenBackOnSignals($0, prompt: prompt, console: console) }
                let stops = screen.map { Self.givingTheScreenBackWhileStopped($0, prompt: prompt, console: console) }
                defer {
                    prompt?.giveBack()
                    if let stops {
                        stops.cancel()
                        signal(SIGTSTP, SIG_DFL)
                    }
                    endings?()
                }
                var session = PlaySession(client: client, console: console, json: global.json, screen: screen)
                session.prompt = prompt
                if let commands = commands ?? prompt?.lines() { return try await session.run(commands: commands) }
                let input = InputLines.standardInput()
                standardInput.withLock { $0 = input }
                return try await session.run(commands: input.lines)
            }
            // Input that could not be read to its end (a folder, a closed descriptor, an endless line) is no end of
            // the host's commands: said, with the exit status of a failure.
            if let reason = standardInput.withLock({ $0 })?.failureReason { throw CommandFailure(reason) }
            let fromTerminal = script == nil && isatty(STDIN_FILENO) != 0
            if !fromTerminal, !failedLines.isEmpty {
                throw CommandFailure(
                    Self.failureSummary(lines: failedLines, of: script.map { "--script \($0)" } ?? "standard input"))
            }
        }

        /// Ctrl-C, a `kill` (`SIGQUIT` too) or the terminal closing ends `play` as they would, but gives the screen
        /// back first: the scrolling region it set would stay, and the shell's next lines would overwrite one another
        /// on the bottom line. The terminal gets its line editing back from `prompt`, or what the host types next
        /// would not show. Returns what puts the signals' default actions back (``TerminationSignals``).
        static func givingTheScreenBackOnSignals(
            _ screen: PlayScreen, prompt: PromptLineInput?, console: any Console
        ) -> (@Sendable () -> Void)? {
            TerminationSignals.handle([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) {
                // The screen as it is now: the terminal may have been resized since play began. None when stopped or
                // in the background: the shell has it.
                if prompt?.giveBack() ?? true { console.write((PlayScreen.current() ?? screen).tearDown) }
            }
        }

        /// Ctrl-Z stops `play` as it stops any program, but gives the screen back first (the shell's lines would
        /// overwrite one another on the bottom line), and lays it out again when `fg` continues it: as after a
        /// resize (`SIGWINCH`, sent to itself), since the terminal may have changed size meanwhile and a stopped
        /// job hears no resize. While stopped the terminal has its line editing, which `prompt` turns off again.
        static func givingTheScreenBackWhileStopped(
            _ screen: PlayScreen, prompt: PromptLineInput?, console: any Console
        ) -> any DispatchSourceSignal {
            signal(SIGTSTP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
            source.setEventHandler {
                if prompt?.giveBack() ?? true { console.write((PlayScreen.current() ?? screen).tearDown) }
                // SIGSTOP, which no handler takes, stops the process here; the shell sees the job stopped. Raised on
                // this thread, and again while continued in the background (`bg`), where play could neither read
                // nor draw (``PromptLineInput/stopWhileInTheBackground(_:)``).
                // Killed meanwhile (`kill %1` continues the job it ends), play takes the terminal no more.
                guard PromptLineInput.stopWhileInTheBackground(STDIN_FILENO, stoppingFirst: true) else { return }
                prompt?.keyMode()
                kill(getpid(), SIGWINCH)
            }
            source.resume()
            return source
        }

        /// `2 commands failed: lines 3 and 7 of --script party.txt`.
        /// Of many (a binary file piped in by mistake), the first 20 are named and the others counted.
        static func failureSummary(lines: [Int], of source: String) -> String {
            let named = lines.prefix(20).map(String.init) + (lines.count > 20 ? ["\(lines.count - 20) more"] : [])
            let list = named.spokenList("and")
            let what = lines.count == 1 ? "1 command failed: line" : "\(lines.count) commands failed: lines"
            return "\(what) \(list) of \(source)"
        }
    }
}

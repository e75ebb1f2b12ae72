import ArgumentParser
import Foundation
import ShakyBoard

#if canImport(Glibc)
    import Glibc
#endif

extension Shaky {
    /// `shaky board`: the full-screen board the room watches.
    struct Board: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the game full screen for the room: letters, countdown, buzzes and scores.",
            discussion: """
                The board for a TV or a tablet: the question with its scrambled answer in big letters (hints \
                marked), the points on offer, a countdown bar, the buzz order, the answers and the scores, \
                then a podium when the game is over. It only watches the game; host it with `shaky play` or \
                the other commands.

                It redraws in place and follows the terminal's size. It never quits on its own: when the \
                daemon restarts or its socket is gone it says "reconnecting…" and comes back. Until the daemon \
                answers, it names the socket it tries and why that fails, and points to `journalctl -u shakyd \
                -b` and --socket. Press q or Ctrl-C to quit (under the plain layout at a terminal, q and Enter), \
                Ctrl-L to draw the whole screen again, Ctrl-Z to stop it until `fg`.

                Colours are turned off by NO_COLOR (every team also has a symbol); TERM=dumb, or output that \
                is not a terminal, gets a plain layout printed whenever the board changes. A TERM that terminfo \
                does not know here (a newer terminal over SSH) is drawn as xterm-256color, else xterm or vt100, \
                and the board says so. On a Raspberry Pi without a desktop, shaky-board.service runs it on tty1.
                """)

        // The options every command takes: `--socket` declared here on its own was taken by `shaky`'s, and lost.
        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print the plain layout whenever the board changes, instead of drawing full screen.")
        var plain = false

        func validate() throws {
            if global.json {
                throw ValidationError(
                    "The board is drawn for people; `shaky watch --json` gives the game's events as JSON.")
            }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            var mode = BoardApp.mode(environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
            if plain, case .fullScreen = mode {
                mode = BoardApp.mode(environment: environment.merging(["TERM": "dumb"]) { $1 }, outputIsTerminal: false)
            }
            do {
                try await BoardApp(socketPath: global.socket, mode: mode).run()
            } catch let error as BoardError {
                throw CommandFailure(error.description)
            }
        }
    }
}

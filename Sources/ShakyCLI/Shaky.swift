import ArgumentParser
import ShakyCore
import Varlink

/// `shaky`: the Shaky Words command-line client, a thin client of the `shakyd` daemon.
public struct Shaky: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "shaky",
        abstract: "Host and play Shaky Words, the party quiz of scrambled letters.",
        discussion: """
            Teams race to name the answer from its scrambled letters. Shaking the device (or `shaky hint`) \
            puts one more letter in its right place, for fewer points; the first team to buzz answers first.

            Every command talks to the daemon, shakyd, over its Varlink socket: --socket PATH, else \
            $SHAKY_SOCKET, else the user's own daemon's ($XDG_RUNTIME_DIR/shaky/shaky.sock), then the system \
            daemon's (/run/shaky/shaky.sock; as root only that one). Start a daemon with `shakyd` (or \
            `systemctl start shakyd.socket`).

            FILES:
            /run/shaky/shaky.sock: The system daemon's socket, tried after a user's daemon.
            /tmp/shaky-UID/shaky.sock: A user's daemon's socket when there is no XDG_RUNTIME_DIR.

            ENVIRONMENT:
            SHAKY_SOCKET: The daemon's socket, unless --socket is given.
            XDG_RUNTIME_DIR: Where a user's daemon has its socket (shaky/shaky.sock inside it), tried first.
            NO_COLOR: When set to anything but the empty string, turns colours off.
            TERM: When dumb or unset, turns colours off, the board prints its plain layout, and play writes line by line.
            COLUMNS: The width of the board's plain layout when its output is not a terminal (default 80).
            LINES: The height of the board's plain layout when its output is not a terminal (default 24).

            EXIT STATUS:
            0: Done.
            1: The game, a pack or a file refused; the reason is printed.
            2: The command line is wrong (an argument that is not UTF-8 text included).
            3: The daemon cannot be reached.

            EXAMPLES:
            A party: a game of ten questions for three teams, hosted at a terminal, with the board on the TV:
              shaky new --team Owls --team Foxes --team Bees --questions 10
              shaky play
              shaky board
            The same game one command at a time (a shake of the device or `shaky hint` reveals a letter); \
            teams answer in buzz order once every team has buzzed or the time is up:
              shaky next
              shaky buzz Owls
              shaky buzz Foxes
              shaky buzz Bees
              shaky answer Owls snow leopard
              shaky scoreboard
            """,
        version: ShakyVersion.current,
        groupedSubcommands: [
            CommandGroup(
                name: "Hosting a game",
                subcommands: [
                    New.self, Next.self, Hint.self, Buzz.self, Answer.self, Pause.self, Resume.self, Skip.self,
                    End.self, Score.self, Judge.self, Play.self, Demo.self,
                ]),
            CommandGroup(
                name: "Following a game", subcommands: [Board.self, Status.self, Scoreboard.self, Watch.self]),
            CommandGroup(
                name: "Packs, records and the daemon",
                subcommands: [Pack.self, History.self, Leaderboard.self, Sensor.self, Buzzers.self, Settings.self]),
        ]
    )

    /// `--socket` and `--json` before the subcommand: moved after it before parsing
    /// (``movingGlobalOptionsAfterTheSubcommand(_:)``), declared here so that help and completion scripts know them.
    @OptionGroup var global: GlobalOptions

    public init() {}
}

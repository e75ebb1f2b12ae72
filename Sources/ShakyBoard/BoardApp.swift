import Dispatch
import Foundation
import ShakyCore
import ShakyProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `shaky board`: feeds a ``BoardModel`` from the daemon and draws it full screen until `q`, Ctrl-C,
/// SIGINT, SIGTERM or SIGHUP. It never quits on its own: a daemon that goes away is waited for.
public struct BoardApp: Sendable {
    /// How the board is drawn.
    public enum Mode: Sendable {
        /// Full screen with curses, with colour or without.
        case fullScreen(colour: Bool)
        /// For `TERM=dumb` and pipes: the screen printed as plain text whenever it changes (the countdown
        /// in steps of ten seconds, so a log does not fill up).
        case plain(width: Int, height: Int)
    }

    /// The daemon's socket, or `nil` for the usual places.
    public var socketPath: String?
    /// How it is drawn.
    public var mode: Mode
    /// The terminal's type (`TERM`), for the full screen.
    public var term: String?

    /// A board of the daemon at `socketPath`, on a terminal of type `term`.
    public init(socketPath: String?, mode: Mode, term: String? = ProcessInfo.processInfo.environment["TERM"]) {
        self.socketPath = socketPath
        self.mode = mode
        self.term = term
    }

    /// The mode the environment asks for: plain for `TERM=dumb`, no `TERM` or output that is not a
    /// terminal; no colour with `NO_COLOR` (any non-empty value, see no-color.org).
    public static func mode(environment: [String: String], outputIsTerminal: Bool) -> Mode {
        if !TerminalCapabilities.takesEscapeSequences(term: environment["TERM"]) || !outputIsTerminal {
            let width = environment["COLUMNS"].flatMap(Int.init).map { min(max($0, 20), 500) } ?? 80
            let height = environment["LINES"].flatMap(Int.init).map { min(max($0, 10), 300) } ?? 24
            return .plain(width: width, height: height)
        }
        return .fullScreen(colour: !TerminalCapabilities.coloursRefused(environment: environment))
    }

    /// Runs the board until the viewer quits.
    public func run() async throws {
        let model = BoardModel()
        let start = ContinuousClock.now
        let now: @Sendable () -> Duration = { start.duration(to: .now) }
        let feed = BoardFeed(
            socketPath: socketPath, now: now, sleep: { try await Task.sleep(for: $0) })
        let signals = Self.watchSignals(model)
        defer { signals.forEach { $0.cancel() } }
        let feeding = Task { await feed.run(into: model) }
        defer { feeding.cancel() }
        let mode = self.mode
        let term = self.term
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // Curses blocks while it waits for keys: it gets a thread of its own, not one of the pool's.
            let thread = Thread(named: "board-screen") {
                do {
                    switch mode {
                    case .fullScreen(let colour): try Self.drawFullScreen(model, colour: colour, term: term, now: now)
                    case .plain(let width, let height): Self.printPlain(model, width: width, height: height, now: now)
                    }
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    private static func watchSignals(_ model: BoardModel) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { model.requestQuit() }
            source.resume()
            return source
        }
    }

    /// The longest the screen loop sleeps: curses learns of a resize in its `SIGWINCH` handler, which may run on
    /// another of the process's threads than the one waiting, and reports it at the next key read.
    static let longestSleep: Duration = .seconds(1)

    private static func drawFullScreen(_ model: BoardModel, colour: Bool, term: String?, now: () -> Duration) throws {
        let terminal = try CursesTerminal(colour: colour, term: term)
        var standIn: BoardState.TerminalStandIn?
        if terminal.terminalName != term {
            standIn = BoardState.TerminalStandIn(term: term ?? "", drawnAs: terminal.terminalName)
        }
        defer {
            terminal.close()
            // The notice went with the screen; the shell keeps this.
            if let standIn { printError(standInMessage(standIn)) }
        }
        if let standIn { model.update { $0.terminalStandIn = standIn } }
        let characters = BlockFont.Characters(term: term)
        var drawn: (version: Int, width: Int, height: Int, at: Duration)?
        var shown: BoardState?
        var keyInput = KeyInput()
        while !model.quitRequested {
            let (state, version) = model.snapshot
            let (width, height) = terminal.size
            let time = now()
            // Redraw on a change, and when the board changes with time alone (a hint's highlight ending).
            let timedChange = drawn.flatMap { state.nextTimedChange(after: $0.at) }
            if drawn == nil || drawn?.version != version || drawn?.width != width || drawn?.height != height
                || timedChange.map({ time >= $0 }) == true
            {
                // A new question, or a new phase of one, sends the whole screen: on a console the kernel's messages
                // may have written over it, and nothing else would draw over them until that part of the board
                // changes.
                if let shown, shown.phase != state.phase || shown.questionNumber != state.questionNumber {
                    terminal.repaintWhole()
                }
                shown = state
                terminal.draw(
                    BoardLayout.render(state, width: width, height: height, now: time, characters: characters))
                drawn = (version, width, height, time)
            }
            // Sleep until a change, a key, the next timed change or a second (for a resize), then read every key
            // curses has.
            let wake = model.waitForChange(
                orInputOn: keyInput.descriptor,
                timeoutMilliseconds: sleepMilliseconds(until: state.nextTimedChange(after: time), now: now()))
            if wake == .input || wake == .timedOut {
                var keys = 0
                while let key = terminal.readKey(waitingAtMost: 0) {
                    keys += 1
                    switch key {
                    case .quit: model.requestQuit()
                    case .repaint:
                        terminal.repaintWhole()
                        drawn = nil
                    case .suspend:
                        terminal.suspend()
                        drawn = nil
                    case .resize, .other: break
                    }
                }
                if wake == .input { keyInput.woke(givingKeys: keys) }
            }
        }
    }

    /// The descriptor the screen loop waits on for keys: standard input, until it shows itself at its end (`<
    /// /dev/null`, a closed pipe, a hung-up terminal), readable at every wait yet giving no key. Waiting on it then
    /// returns at once, and the loop would spin a core; from then on keys are read once a wait ends otherwise, and
    /// the board is quit by a signal.
    struct KeyInput {
        /// Standard input, or -1 once it is no longer waited on.
        private(set) var descriptor = STDIN_FILENO
        private var emptyWakesInARow = 0
        /// Readable wakes in a row without a key that make an input count as ended. A terminal's partial key (an
        /// Escape sequence not yet whole) is held by curses, so its descriptor is not readable again until more comes.
        static let emptyWakesAtAnEnd = 3

        /// Counts a wake for input that gave `keys` keys.
        mutating func woke(givingKeys keys: Int) {
            emptyWakesInARow = keys == 0 ? emptyWakesInARow + 1 : 0
            if emptyWakesInARow >= Self.emptyWakesAtAnEnd { descriptor = -1 }
        }
    }

    /// What to say on leaving a board drawn with a stand-in for the terminal's type.
    static func standInMessage(_ standIn: BoardState.TerminalStandIn) -> String {
        "shaky board: terminfo here does not know the terminal type TERM=\(standIn.term); the board was drawn as "
            + "\(standIn.drawnAs). Install its entry on this system (from the terminal's own machine: "
            + "infocmp -x \(standIn.term) | ssh THIS-HOST -- tic -x -), or set TERM=\(standIn.drawnAs)."
    }

    private static func printError(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// How long to sleep from `now`: until `deadline` (rounded up to the millisecond), at most ``longestSleep``.
    static func sleepMilliseconds(until deadline: Duration?, now: Duration) -> Int32 {
        let wait = min(max(deadline.map { $0 - now } ?? longestSleep, .zero), longestSleep)
        let (seconds, attoseconds) = wait.components
        return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private static func printPlain(_ model: BoardModel, width: Int, height: Int, now: () -> Duration) {
        var printed = ""
        // At a terminal (TERM=dumb) the host quits with q and Enter: the terminal reads lines there.
        var lines = PlainQuitLines(descriptor: isatty(STDIN_FILENO) != 0 ? STDIN_FILENO : -1)
        let start = now()
        while !model.quitRequested {
            let time = now()
            // A frame printed stays: while the first connection is under way (a daemon that is there answers in
            // milliseconds), "Waiting for the daemon" would be printed for a daemon that is up.
            if model.snapshot.state.connection == .connecting, time - start < Self.firstConnectionGrace {
                let left = Self.sleepMilliseconds(until: start + Self.firstConnectionGrace, now: time)
                if model.waitForChange(orInputOn: lines.descriptor, timeoutMilliseconds: left) == .input,
                    lines.readAskQuit()
                {
                    model.requestQuit()
                }
                continue
            }
            var state = model.snapshot.state.counted(at: time)
            if let remaining = state.remaining, remaining.isFinite {
                state.remaining = (max(0, min(remaining, 86_400)) / 10).rounded(.up) * 10
            }
            // Drawn as rounded here: the layout would count the running countdown down again to the second.
            state.countdown = WatchCountdown()
            let text = BoardLayout.render(state, width: width, height: height, now: time).text
            if text != printed {
                let frame = text + "\n" + String(repeating: "=", count: width) + "\n"
                do {
                    try FileHandle.standardOutput.write(contentsOf: Data(frame.utf8))
                } catch {
                    // Whoever read the board went away (a closed pipe): there is no one left to show it to.
                    model.requestQuit()
                }
                printed = text
            }
            let wake = model.waitForChange(
                orInputOn: lines.descriptor,
                timeoutMilliseconds: sleepMilliseconds(until: state.nextTimedChange(after: time), now: now()))
            if wake == .input, lines.readAskQuit() { model.requestQuit() }
        }
    }

    /// How long the plain layout waits for its first connection before it prints that it waits for the daemon.
    static let firstConnectionGrace: Duration = .seconds(1)

    /// The lines the host types under the plain layout at a terminal, where `q` (or `Q`) and Enter quit.
    struct PlainQuitLines {
        /// Standard input, or -1 once it ended (or when it is not a terminal).
        private(set) var descriptor: Int32
        private var pending: [UInt8] = []

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// Reads what came; whether a line of it is `q`. At the end of input, stops reading.
        mutating func readAskQuit() -> Bool {
            var bytes = [UInt8](repeating: 0, count: 256)
            let count = read(descriptor, &bytes, bytes.count)
            if count < 0, errno == EINTR || errno == EAGAIN { return false }
            guard count > 0 else {
                descriptor = -1
                return false
            }
            return take(bytes[..<count])
        }

        /// Takes `bytes` as typed; whether a whole line of them is `q` or `Q` (blanks around it allowed).
        mutating func take(_ bytes: ArraySlice<UInt8>) -> Bool {
            pending += bytes
            var quit = false
            while let end = pending.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if line == "q" || line == "Q" { quit = true }
                pending.removeSubrange(...end)
            }
            // A line too long to be a key is no command: what is held stays small.
            if pending.count > 64 { pending.removeAll() }
            return quit
        }
    }
}

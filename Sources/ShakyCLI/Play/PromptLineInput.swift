import Foundation
import Synchronization

/// The host's commands in `shaky play` at a terminal, read key by key on the prompt line.
///
/// The terminal's own line editing (canonical mode) echoes what is typed where the cursor is: a line longer than the
/// screen ran over itself on the bottom row, and a resize, which lays the screen out again, hid a half-typed line
/// that was still there to be sent. Here the terminal's line editing is off (echo and canonical mode; Ctrl-C and
/// Ctrl-Z still signal), ``LineEditor`` holds the line, and the line is drawn on the prompt row after every key and
/// every layout: it scrolls sideways on that row and is never lost. A small editor of its own rather than GNU
/// readline or libedit: both take the terminal's signals, size and cursor as theirs, while here another task writes
/// the game's events above the prompt at any time, and libedit cannot keep a line to one row.
final class PromptLineInput: Sendable {
    private struct State: Sendable {
        var editor = LineEditor()
        var screen: PlayScreen
        /// Whether the line is drawn: not before the screen is laid out, nor once play has left it or is stopped.
        var drawn = false
    }

    private let state: Mutex<State>
    /// What Ctrl-L does: lays the whole screen out again.
    private let redraw = Mutex<(@Sendable () -> Void)?>(nil)
    private let console: any Console
    /// The terminal's settings before play changed them, which it restores on leaving or when stopped: read once
    /// play is in the foreground (started with `&`, it would read the shell's own, mid-line).
    private let lineMode: Mutex<termios>
    private let descriptor: Int32

    /// The prompt line of the terminal on `descriptor`, laid out as `screen`; `nil` when `descriptor` is not a
    /// terminal.
    init?(screen: PlayScreen, console: any Console, descriptor: Int32 = STDIN_FILENO) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.lineMode = Mutex(settings)
        self.descriptor = descriptor
        self.console = console
        self.state = Mutex(State(screen: screen))
    }

    /// Turns the terminal's line editing off and reads the host's lines on a thread of their own, until Ctrl-D on an
    /// empty line or the end of input.
    func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        // Started in the background (`shaky play &`): stopped, as a program that sets its terminal up is, until `fg`
        // (play's threads block SIGTTOU, which would otherwise stop it at the first change).
        // Killed meanwhile, play takes the terminal no more, and reads nothing: the signal's handler ends it.
        guard Self.stopWhileInTheBackground(descriptor) else { return stream }
        var settings = termios()
        if tcgetattr(descriptor, &settings) == 0 { lineMode.withLock { $0 = settings } }
        keyMode()
        let thread = Thread { [self] in
            var decoder = TerminalKeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            reading: while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                // A background job (`bg`) cannot read its terminal: play waits to be in the foreground again.
                if count < 0, errno == EIO, isInBackground {
                    usleep(100_000)
                    continue
                }
                guard count > 0 else { break }
                let keys = decoder.keys(in: buffer[..<count])
                // An Escape alone, or a key whose last bytes never came: after a moment it is dropped.
                if decoder.isInsideSequence, !Self.moreComes(on: descriptor, within: 100) {
                    decoder.abandonSequence()
                }
                for key in keys {
                    switch apply(key) {
                    case .submitted(let line): continuation.yield(line)
                    case .endOfInput: break reading
                    case .changed, .unchanged, .overflowed: break
                    }
                    if key == .redraw, let redraw = redraw.withLock({ $0 }) { redraw() }
                }
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }

    /// Lays the screen out as `screen` (at the start, after a resize or after `fg`) by writing `layout` (the
    /// screen's ``PlayScreen/setUp`` or more), then the line as it stands on its prompt row.
    func layOut(_ screen: PlayScreen, drawing layout: String) {
        state.withLock { state in
            state.screen = screen
            state.drawn = true
            console.write(layout + screen.promptLine(state.editor.view(columns: screen.promptColumns)))
        }
    }

    /// Sets what Ctrl-L does: lay the whole screen out again.
    func onRedraw(_ body: @escaping @Sendable () -> Void) {
        redraw.withLock { $0 = body }
    }

    /// Gives the terminal its line editing back and draws nothing more: play is leaving, or stopped (Ctrl-Z).
    /// Returns whether play held the screen, which is then the caller's to give back (``PlayScreen/tearDown``); a
    /// second call, or one from the background (`kill %1` on a stopped play), touches nothing: the screen and the
    /// terminal's modes are the shell's.
    @discardableResult
    func giveBack() -> Bool {
        state.withLock { state in
            guard state.drawn, !isInBackground else {
                state.drawn = false
                return false
            }
            state.drawn = false
            console.write(Self.bracketedPaste(on: false))
            var settings = lineMode.withLock { $0 }
            tcsetattr(descriptor, TCSADRAIN, &settings)
            return true
        }
    }

    /// Turns the terminal's line editing off again, after ``giveBack()`` while stopped; the line is drawn at the
    /// next ``layOut(_:drawing:)``.
    ///
    /// Ctrl-C, Ctrl-Z still signal. Ctrl-\ does nothing (it would quit with a core dump, leaving the screen as it
    /// is), nor do Ctrl-S and Ctrl-Q (flow control would freeze the countdown until Ctrl-Q). A paste comes marked
    /// (bracketed paste), so its lines are text, not commands (``TerminalKeyDecoder``).
    func keyMode() {
        var settings = lineMode.withLock { $0 }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
            characters[Int(VQUIT)] = 0  // _POSIX_VDISABLE on Linux
        }
        tcsetattr(descriptor, TCSADRAIN, &settings)
        console.write(Self.bracketedPaste(on: true))
    }

    /// Whether play is a background job of its terminal (`bg`), which cannot read it or set it up.
    var isInBackground: Bool { Self.isInBackground(descriptor) }

    static func isInBackground(_ descriptor: Int32) -> Bool {
        let foreground = tcgetpgrp(descriptor)
        return foreground > 0 && foreground != getpgrp()
    }

    /// Stops play (at once when `stoppingFirst`) while it is a background job of the terminal on `descriptor`, until
    /// `fg`. Returns whether play goes on in the foreground: not when a signal ends it (``TerminationSignals``).
    ///
    /// Raised on this thread (`raise` is `tgkill`), which then stops before its next line: sent to the process, it
    /// would stop another thread first and this one go on a moment. Continued in the background (`bg`, or `kill %1`,
    /// which continues the job it sends SIGTERM), it stops again after a moment, unless the continuing came with a
    /// signal that ends play: that signal's handler runs as the process continues, and the moment leaves it time on
    /// another thread.
    @discardableResult
    static func stopWhileInTheBackground(_ descriptor: Int32, stoppingFirst: Bool = false) -> Bool {
        if stoppingFirst || isInBackground(descriptor), !TerminationSignals.isEnding { raise(SIGSTOP) }
        while isInBackground(descriptor), !TerminationSignals.isEnding {
            let moment = ContinuousClock.now + .milliseconds(50)
            while ContinuousClock.now < moment, !TerminationSignals.isEnding { usleep(5_000) }
            if isInBackground(descriptor), !TerminationSignals.isEnding { raise(SIGSTOP) }
        }
        return !TerminationSignals.isEnding
    }

    /// xterm's switch for bracketed paste, which terminals that lack it ignore.
    private static func bracketedPaste(on: Bool) -> String { "\u{1B}[?2004" + (on ? "h" : "l") }

    private func apply(_ key: TerminalKey) -> LineEditor.Outcome {
        state.withLock { state in
            let outcome = state.editor.apply(key)
            if outcome != .unchanged, state.drawn {
                let bell = outcome == .overflowed ? "\u{07}" : ""
                console.write(bell + state.screen.promptLine(state.editor.view(columns: state.screen.promptColumns)))
            }
            return outcome
        }
    }

    /// Whether more bytes come on `descriptor` within `milliseconds`.
    private static func moreComes(on descriptor: Int32, within milliseconds: Int32) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, milliseconds) > 0
    }
}

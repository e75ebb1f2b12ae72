import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the board knows, shared between the feed (which updates it) and the screen loop (which draws it): the
/// state, a version that counts changes, and a quit request.
///
/// Each change also writes a byte into a pipe, so the screen loop sleeps until there is something to draw (or a
/// key to read) instead of looking every tenth of a second: with nothing to show it wakes once a second, not ten
/// times.
public final class BoardModel: Sendable {
    private let guarded = Mutex<(state: BoardState, version: Int, quit: Bool)>((BoardState(), 0, false))
    /// The pipe's ends: readable after a change or a quit request until
    /// ``waitForChange(orInputOn:timeoutMilliseconds:)`` empties it; -1 when the kernel gave none (then the wait
    /// only times out).
    private let changes: (read: Int32, write: Int32)

    /// What ended a ``waitForChange(orInputOn:timeoutMilliseconds:)``.
    public enum Wake: Equatable, Sendable {
        /// The state changed, or a quit was requested.
        case changed
        /// The input descriptor has something to read.
        case input
        /// The time ran out, or a signal arrived (a terminal's resize).
        case timedOut
    }

    /// An empty board.
    public init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            changes = (-1, -1)
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        changes = (ends[0], ends[1])
    }

    deinit {
        if changes.read >= 0 {
            close(changes.read)
            close(changes.write)
        }
    }

    /// Changes the state.
    public func update(_ change: (inout BoardState) -> Void) {
        guarded.withLock { value in
            change(&value.state)
            value.version &+= 1
        }
        signalChange()
    }

    /// The state and its version now.
    public var snapshot: (state: BoardState, version: Int) {
        guarded.withLock { ($0.state, $0.version) }
    }

    /// Asks the screen loop to stop (a signal, or `q`).
    public func requestQuit() {
        guarded.withLock { $0.quit = true }
        signalChange()
    }

    /// Whether the board should stop.
    public var quitRequested: Bool {
        guarded.withLock { $0.quit }
    }

    /// Sleeps until the state changes (or a quit is requested) since the last wait, `input` (a descriptor, -1 for
    /// none) has something to read, or `timeoutMilliseconds` pass (-1: no limit).
    public func waitForChange(orInputOn input: Int32, timeoutMilliseconds: Int32) -> Wake {
        var descriptors = [
            pollfd(fd: changes.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
        ]
        let count = poll(&descriptors, input >= 0 ? 2 : 1, timeoutMilliseconds)
        // -1 is EINTR here (a signal such as SIGWINCH): the caller looks at the terminal again.
        guard count > 0 else { return .timedOut }
        if descriptors[0].revents != 0 {
            var bytes = [UInt8](repeating: 0, count: 512)
            while read(changes.read, &bytes, bytes.count) > 0 {}
            return .changed
        }
        return .input
    }

    private func signalChange() {
        guard changes.write >= 0 else { return }
        var byte: UInt8 = 1
        // Non-blocking: a pipe that is full already wakes the loop.
        _ = write(changes.write, &byte, 1)
    }
}

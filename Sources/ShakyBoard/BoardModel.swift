import Synchronization

/// The board's state shared between the feed that applies the daemon's events and the screen loop that
/// draws it. Every change bumps ``version`` so the screen loop redraws only when something changed.
public final class BoardModel: Sendable {
    private let guarded = Mutex<(state: BoardState, version: Int, quit: Bool)>((BoardState(), 0, false))

    /// An empty board.
    public init() {}

    /// Changes the state.
    public func update(_ change: (inout BoardState) -> Void) {
        guarded.withLock { value in
            change(&value.state)
            value.version &+= 1
        }
    }

    /// The state and its version now.
    public var snapshot: (state: BoardState, version: Int) {
        guarded.withLock { ($0.state, $0.version) }
    }

    /// Asks the screen loop to stop (a signal, or `q`).
    public func requestQuit() {
        guarded.withLock { $0.quit = true }
    }

    /// Whether the board should stop.
    public var quitRequested: Bool {
        guarded.withLock { $0.quit }
    }
}

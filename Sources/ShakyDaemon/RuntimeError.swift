import ShakyStore
import TriviaEngine

/// Why the runtime refused a call (the Game interface names each case, see `RuntimeError+VarlinkErrorConvertible`).
public enum RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no game yet.
    case noGame
    /// A game is in play and the call would replace it.
    case gameInProgress
    /// The game cannot be set up as asked.
    case invalidSetup(String)
    /// The engine refused the move.
    case refused(GameError)
    /// The change could not be saved, so it was not made.
    case storageFailed(String)

    public var description: String {
        switch self {
        case .noGame: "there is no game; start one with `shaky new`"
        case .gameInProgress: "a game is in play; end it first, or start the new one with replace"
        case .invalidSetup(let message): message
        case .refused(let error): error.description
        case .storageFailed(let message): "the change could not be saved, so nothing changed: \(message)"
        }
    }
}

import ShakyProtocol
import ShakyStore
import TriviaEngine
import Varlink

/// Why the runtime refused a call, as the Game interface's errors say it.
public enum RuntimeError: Error, Equatable, Sendable, CustomStringConvertible, VarlinkErrorConvertible {
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

    /// This error as the Game interface names it.
    public var replyError: ShakyAPI.GameInterface.ReplyError {
        switch self {
        case .noGame: .noGame
        case .gameInProgress: .gameInProgress
        case .invalidSetup(let message): .invalidSetup(message: message)
        case .refused(let error): .refused(reason: error.reasonCode, message: error.description)
        case .storageFailed: .storageFailed(message: description)
        }
    }

    public var varlinkReplyError: VarlinkReplyError { replyError.varlinkReplyError }
}

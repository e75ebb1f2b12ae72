import ShakyProtocol
import Varlink

extension RuntimeError: VarlinkErrorConvertible {
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

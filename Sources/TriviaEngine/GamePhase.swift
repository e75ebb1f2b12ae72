/// Where a game is in its flow. Pausing is a separate flag (`Game.isPaused`) that freezes the
/// indication or answering phase it interrupts.
public enum GamePhase: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Created; waiting for the host to open the first question.
    case ready
    /// A question is open: the scramble is shown, hints and buzzes are taken.
    case indication
    /// The team is giving its answer; teams come up in buzz order.
    case answering(team: String)
    /// The question is over and its answer revealed; waiting for the host's next question.
    case roundOver
    /// The game is over and its result fixed.
    case gameOver

    /// Whether a countdown runs in this phase (unless paused).
    public var hasTimer: Bool {
        switch self {
        case .indication, .answering: true
        case .ready, .roundOver, .gameOver: false
        }
    }

    /// The phase in a host's words, e.g. "Owls to answer", "buzzers open" (the words `shaky board` shows).
    public var partyDescription: String {
        switch self {
        case .ready: "waiting for the first question"
        case .indication: "buzzers open"
        case .answering(let team): "\(team) to answer"
        case .roundOver: "round over"
        case .gameOver: "game over"
        }
    }

    /// A short name, e.g. `answering(Owls)`.
    public var description: String {
        switch self {
        case .ready: "ready"
        case .indication: "indication"
        case .answering(let team): "answering(\(team))"
        case .roundOver: "roundOver"
        case .gameOver: "gameOver"
        }
    }
}

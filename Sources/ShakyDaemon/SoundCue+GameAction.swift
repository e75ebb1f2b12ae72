import ShakyCore
import TriviaEngine

extension SoundCue {
    /// The countdown's last seconds, each of which sounds a tick.
    static let countdownCueWindow: Duration = .seconds(5)

    /// The cue an engine action sounds, if any; `teams` give a buzz its team's slot.
    init?(for action: GameAction, teams: [Team]) {
        switch action {
        case .hintRevealed: self = .hint
        case .buzzed(let team, _, _, _): self = .buzz(slot: teams.firstIndex { $0.name == team } ?? 0)
        case .judged(_, let given, let correct, _): self = correct ? .correct : given == nil ? .timeUp : .wrong
        case .tick(_, let remaining):
            guard remaining <= Self.countdownCueWindow, remaining > .zero else { return nil }
            self = .tick
        case .answerRevealed(_, let winner, _):
            guard winner == nil else { return nil }
            self = .roundOver
        case .judgementOverruled(_, _, let correct, _, _): self = correct ? .correct : .wrong
        case .gameOver: self = .gameOver
        default: return nil
        }
    }
}

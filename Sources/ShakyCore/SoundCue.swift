/// A short sound the game plays: a shake's hint, a team's buzz, a verdict, a countdown tick…
///
/// Each cue has one file in a sound set (``fileName``), so a set can be swapped by dropping files with the same
/// names into a folder.
public enum SoundCue: Hashable, Sendable {
    /// A shake revealed a hint: a quick rising shimmer.
    case hint
    /// A team buzzed in: each team slot has its own tone. Slots wrap modulo ``buzzerSlotCount``.
    case buzz(slot: Int)
    /// The answer was right.
    case correct
    /// The answer was wrong.
    case wrong
    /// One of the last seconds of a round.
    case tick
    /// The round's time ran out.
    case timeUp
    /// A round ended.
    case roundOver
    /// The game ended: a fanfare.
    case gameOver
    /// The daemon started.
    case startup

    /// How many distinct buzz tones exist (team slots 0…7).
    public static let buzzerSlotCount = 8

    /// Every distinct cue, each buzz slot once.
    public static let allCases: [SoundCue] =
        [.hint] + (0..<buzzerSlotCount).map { .buzz(slot: $0) }
        + [.correct, .wrong, .tick, .timeUp, .roundOver, .gameOver, .startup]

    /// The cue with its buzz slot brought into `0..<buzzerSlotCount`; other cues unchanged.
    public var normalized: SoundCue {
        if case .buzz(let slot) = self {
            let count = Self.buzzerSlotCount
            return .buzz(slot: ((slot % count) + count) % count)
        }
        return self
    }

    /// The cue's name without extension, as used in file names and logs (`hint`, `buzz-3`, `time-up`).
    public var name: String {
        switch normalized {
        case .hint: "hint"
        case .buzz(let slot): "buzz-\(slot)"
        case .correct: "correct"
        case .wrong: "wrong"
        case .tick: "tick"
        case .timeUp: "time-up"
        case .roundOver: "round-over"
        case .gameOver: "game-over"
        case .startup: "startup"
        }
    }

    /// The cue's file name in a sound set (`hint.wav`, `buzz-3.wav`).
    public var fileName: String { name + ".wav" }
}

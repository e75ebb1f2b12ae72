import TriviaEngine

/// What the runtime tells its observer, in the engine's terms; the service maps it to `Watch` events.
public enum RuntimeEvent: Sendable, Equatable {
    /// The whole game (`nil` when there is none): what a watcher hears first, and after a new game.
    case state(GameStatus?)
    /// Something the engine did (never `wake` or `cancelWake`, which are the runtime's own).
    case action(GameAction)
    /// The running countdown changed otherwise than by running (a question opened, a buzz cut the time, a team is up,
    /// play resumed): `remaining` is left in `phase` from now on. For watchers that count down on their own clock;
    /// the others hear a tick each second (``GameAction/tick(phase:remaining:)``) instead.
    case countdown(phase: GamePhase, remaining: Duration)
    /// The countdown froze (the engine's `paused`) with `remaining` left, so a watcher that counts down on its own
    /// clock shows what the game has left, not what it counted (after a suspend, say).
    case paused(remaining: Duration?)
    /// A hint (`hintRevealed`) that a shake of `shaker` gave.
    case shakeHint(GameAction, Shaker)
    /// The accelerometer went away or came back.
    case sensor(present: Bool, device: String?)
    /// Something happened to the teams' buttons (told by the buzzer service through ``GameRuntime/announce(_:)``).
    case buzzer(BuzzerNotice)
}

import ShakyCore
import TriviaEngine

/// What the buzzer service tells watchers (of `Buzzers.Watch`, and of `Game.Watch` through the runtime).
public enum BuzzerNotice: Sendable, Equatable {
    /// Press to join: this team should press its button now.
    case joinAsking(team: String)
    /// A team claimed a button by pressing it, on the device `device` (its identity) at `devicePath`.
    case joined(team: String, device: String, keyName: String, devicePath: String)
    /// A joining ended before every team pressed, while it asked `team`.
    case joinEnded(team: String, reason: JoinEnd)
    /// A team's button went down at `kernelTime` (CLOCK_MONOTONIC), with what became of it (and, when it locked
    /// the team out, for how long from now).
    case pressed(team: String, keyName: String, kernelTime: Duration, outcome: PressOutcome, lockedFor: Duration?)
    /// A button no team has was pressed: it did nothing.
    case unassignedPress(ButtonPress)
    /// While joining, a button `owner` took in this joining was pressed when no question was open: it did nothing,
    /// and `asking`, the team asked, is to press another.
    case takenPress(ButtonPress, owner: String, asking: String)
    /// A buzzer device went away; its buttons keep their teams.
    case deviceGone(identity: String, devicePath: String)
    /// A buzzer device is back.
    case deviceBack(identity: String, devicePath: String)
    /// The buttons of `team` (of every team when `nil`) were released: `count` of them. Any joining stopped.
    case cleared(team: String?, count: Int)

    /// Why a joining ended before every team pressed (a clear is told as ``cleared(team:count:)``).
    public enum JoinEnd: Sendable, Equatable {
        /// A new game of other teams started: the teams still asked no longer play.
        case otherTeams
        /// Another joining began in its place.
        case replaced
    }
}

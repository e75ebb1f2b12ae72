/// An accelerometer whose shakes give hints: the board's own sensor (the one `--input` chose), or a motion
/// controller next to it (a DualSense's motion sensors, a Joy-Con's IMU), whose shake may be a team's.
public struct Shaker: Sendable, Equatable {
    /// Which of the two it is.
    public enum Kind: String, Sendable, Equatable {
        /// The board's own sensor.
        case board
        /// A game controller's accelerometer.
        case controller
    }

    /// The board's sensor or a controller.
    public var kind: Kind
    /// The device node (or trace file) read.
    public var device: String
    /// The device's name.
    public var name: String
    /// For a controller: the buzzer identity of its buttons, when they were found.
    public var buttons: String?
    /// For a controller: the team whose button is on it, filled in by the runtime when exactly one team has one.
    public var team: String?

    /// Creates a description.
    public init(kind: Kind, device: String, name: String, buttons: String? = nil, team: String? = nil) {
        self.kind = kind
        self.device = device
        self.name = name
        self.buttons = buttons
        self.team = team
    }
}

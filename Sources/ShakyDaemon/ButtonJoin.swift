import ShakyCore

/// Press to join: the teams are asked in turn to press their button, and the first press on a button no
/// other team took in this round of joining claims the asked team's slot. Pure; the buzzer service drives it.
public struct ButtonJoin: Sendable, Equatable {
    /// The teams still to press, first asked first.
    public private(set) var waiting: [String]
    /// The buttons claimed so far, by team, in the order they were claimed.
    public private(set) var claimed: [(team: String, button: ButtonID)]

    /// Starts asking `teams`, in order.
    public init(teams: [String]) {
        waiting = teams
        claimed = []
    }

    /// The team asked to press now, or `nil` once every team has a button.
    public var asking: String? { waiting.first }

    /// Whether every team has pressed.
    public var isComplete: Bool { waiting.isEmpty }

    /// The team that claimed `button` in this joining, if one did.
    public func team(of button: ButtonID) -> String? {
        claimed.first { $0.button == button }?.team
    }

    /// Takes a press: returns the team that claimed `button` with it, or `nil` when the button is already
    /// another team's in this joining (or nobody is waiting).
    public mutating func press(_ button: ButtonID) -> String? {
        guard let team = waiting.first, !claimed.contains(where: { $0.button == button }) else { return nil }
        waiting.removeFirst()
        claimed.append((team, button))
        return team
    }

    public static func == (lhs: ButtonJoin, rhs: ButtonJoin) -> Bool {
        lhs.waiting == rhs.waiting && lhs.claimed.map(\.team) == rhs.claimed.map(\.team)
            && lhs.claimed.map(\.button) == rhs.claimed.map(\.button)
    }
}

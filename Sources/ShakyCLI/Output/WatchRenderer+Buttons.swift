import ShakyCore
import ShakyProtocol

extension WatchRenderer {
    /// The line for what happened to the teams' buttons, or `nil` for a press that buzzed (its `buzz` event says
    /// so); `joinHint` says how the host lets teams press to join.
    static func buttonLine(_ event: ShakyAPI.ButtonEvent, joinHint: String = "shaky buzzers join") -> String? {
        let team = event.team ?? "?"
        switch event.kind {
        case .joinAsking:
            return "\(team): press your button"
        case .joined:
            // The device too: two teams may take the same key of two devices alike (two joysticks of one make).
            let device = (event.path ?? event.device).map { " on \($0)" } ?? ""
            return "Join: \(team) has \(event.keyName ?? "a button")\(device)"
        case .joinEnded:
            return "Join: no longer asking \(team)" + (event.message.map { ": \($0)" } ?? "")
        case .pressed:
            switch event.outcome {
            case "buzzed":
                return nil
            case "lockedOut":
                let time = event.lockedFor.map { " for \(TextRenderer.seconds($0))" } ?? ""
                return "Press: \(team) is locked out\(time) for pressing early"
            case "early":
                return "Press: \(team) pressed before the question opened (ignored)"
            case "unassigned":
                let key = event.keyName ?? "a button"
                let device = event.path ?? event.device ?? "a buzzer device"
                return "Press: no team has \(key) on \(device): \(joinHint), or shaky buzzers assign TEAM "
                    + "\(ShellWord.quoted(device)) \(key)"
            case "taken":
                return "Press: that button is \(team.possessive) — \(event.asking ?? "the team asked"): "
                    + "press another button"
            default:
                return "Press: \(team) was refused" + (event.message.map { ": \($0)" } ?? "")
            }
        case .deviceGone:
            let device = event.path ?? event.device ?? "a buzzer device"
            return "Buzzers: \(device) unplugged; its teams keep their buttons"
        case .deviceBack:
            return "Buzzers: \(event.path ?? event.device ?? "a buzzer device") is back"
        case .cleared:
            let count = event.cleared.map { " (\($0) released)" } ?? ""
            guard let team = event.team else { return "Buzzers: no team has a button now\(count)" }
            return "Buzzers: \(team) has no button now\(count)"
        }
    }
}

import ShakyCore
import ShakyProtocol

extension TextRenderer {
    /// The buzzer devices, the teams' buttons and the joining in progress.
    static func buzzers(_ reply: ShakyAPI.BuzzersInterface.ListReply) -> String {
        var sections: [String] = []
        if reply.assignments.isEmpty {
            // A join is refused while no button can press: the way to it is said below instead.
            let canJoin = reply.reading != false && !reply.devices.isEmpty
            sections.append(
                canJoin
                    ? "No buttons assigned: `shaky buzzers join` lets each team press its own." : "No buttons assigned."
            )
        } else {
            var table = TextTable(columns: [.init("Team"), .init("Key"), .init("Device"), .init("")])
            let present = Set(reply.devices.filter(\.present).map(\.identity))
            for assignment in reply.assignments {
                table.rows.append([
                    assignment.team, assignment.keyName, assignment.device,
                    // With no buzzers read at all (said below), whether a device is plugged in is not known.
                    present.contains(assignment.device) || reply.reading == false ? "" : "not plugged in",
                ])
            }
            sections.append(table.render())
        }
        if reply.reading == false {
            sections.append(
                "The daemon reads no buzzers: it was started with --buzzers none (or `buzzers: none` in its "
                    + "configuration file). Start it with --buzzers auto to use buttons.")
        } else if reply.devices.isEmpty {
            sections.append("No buzzer devices read (`shakyd list-devices` says what the daemon can see).")
        } else {
            var table = TextTable(columns: [
                .init("Device"), .init("Kind"), .init("Name"), .init("Identity"), .init(""),
            ])
            for device in reply.devices {
                table.rows.append([
                    device.path, device.kind, device.name, device.identity, device.present ? "" : "gone",
                ])
            }
            sections.append(table.render())
            // Numbered in node order: nothing of their own tells them apart from one start to the next.
            if reply.devices.contains(where: { ButtonID.isNumbered($0.identity) }) {
                sections.append(
                    "Devices numbered #2, #3… share what identifies the others (a port, or a name with no serial): "
                        + "which is which can change when one is plugged in again or the daemon restarts. Have their "
                        + "teams press to join again (`shaky buzzers join`) to be sure whose button is whose.")
            }
        }
        if let next = reply.joining.first {
            let rest = reply.joining.dropFirst()
            sections.append(
                "Joining: \(next) to press" + (rest.isEmpty ? "." : " (then \(rest.joined(separator: ", ")))."))
        }
        return sections.joined(separator: "\n\n")
    }
}

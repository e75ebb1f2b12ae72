import Foundation
import ShakyProtocol
import Testing
import Varlink

@testable import ShakyCLI

/// `shaky buzzers`: parsing, the calls each subcommand makes and what it prints.
@Suite struct BuzzersCommandTests {
    func shaky(_ daemon: FakeDaemon, _ arguments: [String]) async -> ShakyOutcome {
        await runInProcess(arguments + ["--socket", daemon.socketPath])
    }

    static let buzz = "pci-0000:00:14.0-usb-0:2:1.0"

    static func event(_ kind: ShakyAPI.BuzzerEvent.Kind, team: String, keyName: String? = nil) -> VarlinkObject {
        let event = ShakyAPI.BuzzerEvent(kind: kind, team: team, keyName: keyName, device: keyName.map { _ in buzz })
        guard case .object(let object) = try? JSONValue(encoding: ShakyAPI.BuzzersInterface.WatchReply(event: event))
        else { return [:] }
        return object
    }

    @Test func buzzersAloneLists() throws {
        #expect(try Shaky.parseAsRoot(["buzzers"]) is Shaky.Buzzers.List)
        #expect(try Shaky.parseAsRoot(["buzzers", "list", "--json"]) is Shaky.Buzzers.List)
        let assign = try #require(
            try Shaky.parseAsRoot(["buzzers", "assign", "Owls", "/dev/input/event3", "space"]) as? Shaky.Buzzers.Assign)
        #expect([assign.team, assign.device, assign.key] == ["Owls", "/dev/input/event3", "space"])
        let join = try #require(try Shaky.parseAsRoot(["buzzers", "join", "Owls", "Foxes"]) as? Shaky.Buzzers.Join)
        #expect(join.teams == ["Owls", "Foxes"])
        #expect(throws: (any Error).self) { try Shaky.parseAsRoot(["buzzers", "assign", "Owls"]) }
    }

    @Test func listShowsButtonsAndDevices() async throws {
        try await FakeDaemon.run { daemon in
            let reply = ShakyAPI.BuzzersInterface.ListReply(
                devices: [
                    ShakyAPI.BuzzerDevice(
                        path: "/dev/input/event30", name: "Buzz", identity: Self.buzz, kind: "buzz",
                        keys: ["BTN_TRIGGER_HAPPY1"], lights: ["x::buzz1"], present: false)
                ],
                assignments: [
                    ShakyAPI.ButtonAssignment(
                        team: "Owls", device: Self.buzz, key: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1")
                ],
                joining: ["Foxes"])
            daemon.answer("Buzzers.List", with: .reply(encoding: reply))
            let outcome = await shaky(daemon, ["buzzers"])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(
                outcome.output == """
                    Team  Key                 Device
                    Owls  BTN_TRIGGER_HAPPY1  pci-0000:00:14.0-usb-0:2:1.0  not plugged in

                    Device              Kind  Name  Identity
                    /dev/input/event30  buzz  Buzz  pci-0000:00:14.0-usb-0:2:1.0  gone

                    Joining: Foxes to press.

                    """)
            let json = await shaky(daemon, ["buzzers", "--json"])
            let decoded = try JSONDecoder().decode(
                ShakyAPI.BuzzersInterface.ListReply.self, from: Data(json.output.utf8))
            #expect(decoded == reply)
        }
    }

    /// Devices numbered in node order can swap from one start to the next: the list says so, and what to do.
    @Test func devicesNumberedInNodeOrderAreSaidToBeChecked() async throws {
        try await FakeDaemon.run { daemon in
            let pads = ["name:Wireless Controller", "name:Wireless Controller#2"].enumerated().map { index, identity in
                ShakyAPI.BuzzerDevice(
                    path: "/dev/input/event4\(index)", name: "Wireless Controller", identity: identity, kind: "gamepad",
                    keys: ["BTN_SOUTH"], lights: [], present: true)
            }
            for (devices, said) in [(pads, true), (Array(pads.prefix(1)), false)] {
                daemon.answer(
                    "Buzzers.List",
                    with: .reply(
                        encoding: ShakyAPI.BuzzersInterface.ListReply(devices: devices, assignments: [], joining: [])))
                let outcome = await shaky(daemon, ["buzzers"])
                #expect(outcome.status == 0, "\(outcome)")
                #expect(
                    outcome.output.contains(
                        "which is which can change when one is plugged in again or the daemon "
                            + "restarts") == said, "\(outcome)")
            }
        }
    }

    /// A daemon that reads no buzzers (`--buzzers none`) lists no device: its buttons are not said to be unplugged.
    @Test func aDaemonReadingNoBuzzersDoesNotCallItsButtonsUnplugged() async throws {
        try await FakeDaemon.run { daemon in
            let reply = ShakyAPI.BuzzersInterface.ListReply(
                devices: [],
                assignments: [
                    ShakyAPI.ButtonAssignment(
                        team: "Owls", device: Self.buzz, key: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1")
                ],
                joining: [], reading: false)
            daemon.answer("Buzzers.List", with: .reply(encoding: reply))
            let outcome = await shaky(daemon, ["buzzers"])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(!outcome.output.contains("not plugged in"), "\(outcome)")
            #expect(outcome.output.contains("The daemon reads no buzzers"), "\(outcome)")
        }
    }

    @Test func joinAsksEachTeamAndStopsWhenAllPressed() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Buzzers.Join", with: .reply(encoding: ShakyAPI.BuzzersInterface.JoinReply(teams: ["Owls", "Foxes"])))
            daemon.answer(
                "Buzzers.Watch",
                with: .events(
                    [
                        Self.event(.joinAsking, team: "Owls"),
                        Self.event(.joined, team: "Owls", keyName: "BTN_TRIGGER_HAPPY6"),
                        Self.event(.joinAsking, team: "Foxes"),
                        Self.event(.joined, team: "Foxes", keyName: "BTN_TRIGGER_HAPPY1"),
                    ], end: false))
            let outcome = await shaky(daemon, ["buzzers", "join"])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(
                outcome.output == """
                    Owls: press your button.
                    Owls: BTN_TRIGGER_HAPPY6 on \(Self.buzz).
                    Foxes: press your button.
                    Foxes: BTN_TRIGGER_HAPPY1 on \(Self.buzz).

                    """)
            #expect(daemon.calls.map(\.method) == ["io.shakywords.Buzzers.Join", "io.shakywords.Buzzers.Watch"])
        }
    }

    /// Has `daemon` answer `Buzzers.Assign` with the space bar of "kbd" given to `team`, and `Game.Status` with a game
    /// of Owls and Foxes.
    static func answerAssign(of team: String, by daemon: FakeDaemon) {
        daemon.answer(
            "Buzzers.Assign",
            with: .reply(
                encoding: ShakyAPI.BuzzersInterface.AssignReply(
                    assignment: ShakyAPI.ButtonAssignment(team: team, device: "kbd", key: 57, keyName: "KEY_SPACE"))))
        daemon.answer(
            "Game.Status", with: .reply(encoding: ShakyAPI.GameInterface.StatusReply(status: Fixtures.answering)))
    }

    @Test func assignAndClearSayWhatChanged() async throws {
        try await FakeDaemon.run { daemon in
            Self.answerAssign(of: "Owls", by: daemon)
            daemon.answer("Buzzers.Clear", with: .reply(encoding: ShakyAPI.BuzzersInterface.ClearReply(cleared: 3)))
            let assign = await shaky(daemon, ["buzzers", "assign", "Owls", "kbd", "space"])
            #expect(assign.status == 0, "\(assign)")
            #expect(assign.output == "Owls: KEY_SPACE on kbd.\n")
            #expect(assign.error.isEmpty, "Owls plays: \(assign)")
            let clear = await shaky(daemon, ["buzzers", "clear"])
            #expect(clear.output == "Released 3 buttons.\n")
            #expect(
                daemon.calls == [
                    .init("Buzzers.List", [:]),
                    .init("Buzzers.Assign", ["team": "Owls", "device": "kbd", "key": "space"]),
                    .init("Game.Status", [:]),
                    .init("Buzzers.Clear", [:]),
                ])
        }
    }

    @Test("Clearing a team that has no button (a typo) says so, and names the teams that have some")
    func clearingATeamWithoutButtonsSaysSo() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Buzzers.Clear", with: .reply(encoding: ShakyAPI.BuzzersInterface.ClearReply(cleared: 0)))
            let owls = ShakyAPI.ButtonAssignment(team: "Owls", device: "kbd", key: 57, keyName: "KEY_SPACE")
            let foxes = ShakyAPI.ButtonAssignment(team: "Foxes", device: "kbd", key: 30, keyName: "KEY_A")
            daemon.answer(
                "Buzzers.List",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.ListReply(
                        devices: [], assignments: [owls, foxes, owls], joining: [])))
            let clear = await shaky(daemon, ["buzzers", "clear", "Fxoes"])
            #expect(clear.status == 0, "\(clear)")
            #expect(clear.output == "Released 0 buttons of Fxoes.\n")
            #expect(
                clear.error
                    == "shaky: warning: no button was given to “Fxoes”; the teams with buttons are “Owls” and “Foxes”\n"
            )
        }
    }

    @Test("A button given to a team the game in play does not have (a typo) is kept, and said so")
    func assigningToATeamNotPlayingSaysSo() async throws {
        try await FakeDaemon.run { daemon in
            Self.answerAssign(of: "Owsl", by: daemon)
            let assign = await shaky(daemon, ["buzzers", "assign", "Owsl", "kbd", "space"])
            #expect(assign.status == 0, "\(assign)")
            #expect(assign.output == "Owsl: KEY_SPACE on kbd.\n")
            #expect(
                assign.error.contains("no team called “Owsl” plays in this game (the teams are “Owls”"), "\(assign)")
            #expect(assign.error.contains("the button is kept for a game with that team"), "\(assign)")
        }
    }

    /// An identity no device has shown may be a typo: the button would never buzz, and nothing said so.
    @Test func assigningToADeviceNeverSeenSaysSo() async throws {
        try await FakeDaemon.run { daemon in
            Self.answerAssign(of: "Owls", by: daemon)
            let keyboard = ShakyAPI.BuzzerDevice(
                path: "/dev/input/event3", name: "Keyboard", identity: "kbd", kind: "keyboard", keys: ["KEY_SPACE"],
                lights: [], present: false)
            for (devices, warned) in [([ShakyAPI.BuzzerDevice](), true), ([keyboard], false)] {
                daemon.answer(
                    "Buzzers.List",
                    with: .reply(
                        encoding: ShakyAPI.BuzzersInterface.ListReply(devices: devices, assignments: [], joining: [])))
                let assign = await shaky(daemon, ["buzzers", "assign", "Owls", "kbd", "space"])
                #expect(assign.status == 0, "\(assign)")
                #expect(assign.output == "Owls: KEY_SPACE on kbd.\n")
                #expect(
                    assign.error.contains(
                        "no device “kbd” has been seen; the button works once a device of that "
                            + "identity is plugged in") == warned, "\(assign)")
            }
            // A daemon that reads no buzzers would not read it plugged in either.
            daemon.answer(
                "Buzzers.List",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.ListReply(
                        devices: [], assignments: [], joining: [], reading: false)))
            let unread = await shaky(daemon, ["buzzers", "assign", "Owls", "kbd", "space"])
            #expect(unread.error.contains("the daemon reads no buzzers (it was started with --buzzers none)"))
            #expect(!unread.error.contains("has been seen"), "\(unread)")
        }
    }

    @Test func assigningAnotherTeamsButtonSaysWhoseItWas() async throws {
        try await FakeDaemon.run { daemon in
            let owls = ShakyAPI.ButtonAssignment(team: "Owls", device: "kbd", key: 57, keyName: "KEY_SPACE")
            daemon.answer(
                "Buzzers.List",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.ListReply(devices: [], assignments: [owls], joining: [])))
            daemon.answer(
                "Buzzers.Assign",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.AssignReply(
                        assignment: ShakyAPI.ButtonAssignment(
                            team: "Foxes", device: "kbd", key: 57, keyName: "KEY_SPACE"))))
            let moved = await shaky(daemon, ["buzzers", "assign", "Foxes", "kbd", "space"])
            #expect(moved.status == 0, "\(moved)")
            #expect(moved.output == "Foxes: KEY_SPACE on kbd, taken from Owls.\n")
            // A team given its own button again (its name in other letters) takes it from nobody.
            daemon.answer(
                "Buzzers.Assign",
                with: .reply(
                    encoding: ShakyAPI.BuzzersInterface.AssignReply(
                        assignment: ShakyAPI.ButtonAssignment(
                            team: "OWLS", device: "kbd", key: 57, keyName: "KEY_SPACE"))))
            let again = await shaky(daemon, ["buzzers", "assign", "OWLS", "kbd", "space"])
            #expect(again.output == "OWLS: KEY_SPACE on kbd.\n")
        }
    }

    @Test func anUnknownKeyIsARefusal() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer("Buzzers.Assign", with: .error("io.shakywords.Buzzers.UnknownKey", ["key": "KEY_Q"]))
            let outcome = await shaky(daemon, ["buzzers", "assign", "Owls", "kbd", "KEY_Q"])
            #expect(outcome.status == 1, "\(outcome)")
        }
    }
}

extension BuzzersCommandTests {
    @Test func joinStopsWithAMessageWhenTheButtonsAreCleared() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Buzzers.Join", with: .reply(encoding: ShakyAPI.BuzzersInterface.JoinReply(teams: ["Owls", "Foxes"])))
            let cleared: VarlinkObject = ["event": ["kind": "cleared", "cleared": 2]]
            daemon.answer(
                "Buzzers.Watch", with: .events([Self.event(.joinAsking, team: "Owls"), cleared], end: false))
            let outcome = await shaky(daemon, ["buzzers", "join"])
            #expect(outcome.status != 0, "\(outcome)")
            #expect(outcome.output == "Owls: press your button.\n")
            #expect(outcome.error.contains("the buttons were cleared, which stopped the joining"), "\(outcome)")
        }
    }

    @Test func joinSaysWhoseAButtonIsAndStopsWhenANewGameEndsTheJoining() async throws {
        try await FakeDaemon.run { daemon in
            daemon.answer(
                "Buzzers.Join", with: .reply(encoding: ShakyAPI.BuzzersInterface.JoinReply(teams: ["Owls", "Foxes"])))
            let taken: VarlinkObject = [
                "event": [
                    "kind": "pressed", "team": "Owls", "keyName": "BTN_TRIGGER_HAPPY6", "outcome": "taken",
                    "asking": "Foxes",
                    "kernelTime": 2.5,
                ]
            ]
            let ended: VarlinkObject = [
                "event": [
                    "kind": "joinEnded", "team": "Foxes",
                    "message": "the new game's teams are others; `shaky buzzers join` asks them",
                ]
            ]
            daemon.answer(
                "Buzzers.Watch",
                with: .events(
                    [
                        Self.event(.joinAsking, team: "Owls"),
                        Self.event(.joined, team: "Owls", keyName: "BTN_TRIGGER_HAPPY6"),
                        Self.event(.joinAsking, team: "Foxes"), taken, ended,
                    ], end: false))
            let outcome = await shaky(daemon, ["buzzers", "join"])
            #expect(outcome.status != 0, "\(outcome)")
            #expect(
                outcome.output
                    == """
                    Owls: press your button.
                    Owls: BTN_TRIGGER_HAPPY6 on \(Self.buzz).
                    Foxes: press your button.
                    That button is Owls' — Foxes: press another button.

                    """, "\(outcome)")
            #expect(
                outcome.error.contains("the joining ended: the new game's teams are others; `shaky buzzers join` asks"),
                "\(outcome)")
        }
    }
}

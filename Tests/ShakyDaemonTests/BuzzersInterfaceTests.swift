import Logging
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Testing
import Varlink

/// `io.shakywords.Buzzers`: press to join, assign, list, clear and watch, in process and over the socket.
@Suite("Buzzers over the interface")
struct BuzzersInterfaceTests {
    static let buzz = BuzzerCandidate(
        devicePath: "/dev/input/event30", name: "Logitech Logitech Buzz(tm) Controller V1",
        identity: "pci-0000:00:14.0-usb-0:2:1.0", kind: .buzz, keys: Array(0x2c0..<0x2d4))

    static func press(key: Int, kernelMilliseconds: Int) -> BuzzerDeviceEvent {
        .pressed([
            ButtonPress(
                button: ButtonID(device: buzz.identity, key: key), keyName: BuzzerKeys.name(key),
                devicePath: buzz.devicePath, kernelTime: .milliseconds(kernelMilliseconds), age: .zero)
        ])
    }

    @Test(
        "Teams join by pressing, the list shows them, Assign and Clear change them", arguments: TestDaemon.Mode.allCases
    )
    func joinAssignListClear(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let noTeams = try await client.callError("io.shakywords.Buzzers.Join")
            #expect(noTeams.name == "io.shakywords.Buzzers.NoTeams")
            try await PartyPack.create(on: client)
            try await client.call("io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            // No device: no press could come, so no joining starts (the board would ask for ever). This daemon reads
            // no devices (--buzzers none) and says so; the devices below are handed to it by the test.
            let noDevice = try await client.callError("io.shakywords.Buzzers.Join")
            #expect(noDevice.name == "io.shakywords.Buzzers.BuzzersNotRead")
            let off = try await client.call("io.shakywords.Buzzers.List", as: ShakyAPI.BuzzersInterface.ListReply.self)
            #expect(off.reading == false)
            let buzzers = client.daemon.buzzers
            #expect(await buzzers.joining() == nil)
            await buzzers.handle(.attached(Self.buzz))
            let joined = try await client.call(
                "io.shakywords.Buzzers.Join", as: ShakyAPI.BuzzersInterface.JoinReply.self)
            #expect(joined.teams == ["Owls", "Foxes"])
            await buzzers.handle(Self.press(key: 0x2c5, kernelMilliseconds: 10))
            await buzzers.handle(Self.press(key: 0x2c0, kernelMilliseconds: 20))

            let list = try await client.call("io.shakywords.Buzzers.List", as: ShakyAPI.BuzzersInterface.ListReply.self)
            #expect(list.joining.isEmpty)
            #expect(list.devices.map(\.kind) == ["buzz"])
            #expect(list.devices.first?.keys.first == "BTN_TRIGGER_HAPPY1")
            #expect(
                list.assignments == [
                    ShakyAPI.ButtonAssignment(
                        team: "Foxes", device: Self.buzz.identity, key: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1"),
                    ShakyAPI.ButtonAssignment(
                        team: "Owls", device: Self.buzz.identity, key: 0x2c5, keyName: "BTN_TRIGGER_HAPPY6"),
                ])

            // Assign by device node and key name; the Buzz! has no KEY_A.
            let assigned = try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Owls", "device": "/dev/input/event30", "key": "btn_trigger_happy11"],
                as: ShakyAPI.BuzzersInterface.AssignReply.self)
            #expect(assigned.assignment.key == 0x2ca)
            let unknownKey = try await client.callError(
                "io.shakywords.Buzzers.Assign", ["team": "Owls", "device": "/dev/input/event30", "key": "KEY_A"])
            #expect(unknownKey.name == "io.shakywords.Buzzers.UnknownKey")
            // A device not plugged in yet takes any key, but not KEY_RESERVED (0), which the kernel never sends.
            for key in ["0", "0x0", "KEY_RESERVED", "reserved"] {
                let reserved = try await client.callError(
                    "io.shakywords.Buzzers.Assign",
                    ["team": "Owls", "device": "usb-not-yet-plugged", "key": .string(key)])
                #expect(reserved.name == "io.shakywords.Buzzers.UnknownKey", "\(key)")
            }
            let unknownDevice = try await client.callError(
                "io.shakywords.Buzzers.Assign", ["team": "Owls", "device": "/dev/input/event99", "key": "KEY_A"])
            #expect(unknownDevice.name == "io.shakywords.Buzzers.UnknownDevice")
            // A sleeping pad by its Bluetooth address, as bluetoothctl prints it, and a device by its serial alone,
            // before either is plugged in.
            let sleeping = try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Bees", "device": "bluetooth:A4:AE:12:00:00:09", "key": "BTN_SOUTH"],
                as: ShakyAPI.BuzzersInterface.AssignReply.self)
            #expect(sleeping.assignment.device == "bluetooth:a4:ae:12:00:00:09")
            // An address that is none (a typo) would be a button that can never press.
            for typo in ["bluetooth:zz", "bluetooth:a4:ae:12:00:00", "bluetooth:a4:ae:12:00:00:0g"] {
                let refused = try await client.callError(
                    "io.shakywords.Buzzers.Assign", ["team": "Bees", "device": .string(typo), "key": "BTN_SOUTH"])
                #expect(refused.name == "io.shakywords.Buzzers.UnknownDevice", "\(typo)")
            }
            let serial = try await client.call(
                "io.shakywords.Buzzers.Assign", ["team": "Bees", "device": "Foot_Switch_0042", "key": "KEY_B"],
                as: ShakyAPI.BuzzersInterface.AssignReply.self)
            #expect(serial.assignment.device == "Foot_Switch_0042")
            // A device not seen is stored as given, and a key is said back in the refusal: both are bounded.
            for (device, key, parameter) in [
                (String(repeating: "x", count: 257), "KEY_B", "device"),
                ("Foot_Switch_0042", String(repeating: "K", count: 65), "key"),
            ] {
                let refused = try await client.callError(
                    "io.shakywords.Buzzers.Assign", ["team": "Bees", "device": .string(device), "key": .string(key)])
                #expect(refused.name == "org.varlink.service.InvalidParameter", "\(parameter)")
                #expect(refused.parameters["parameter"] == .string(parameter))
            }
            try await client.call("io.shakywords.Buzzers.Clear", ["team": "Bees"])
            // Team names reach the board and the host's terminal: no control characters, at most 24 characters.
            let escape = try await client.callError(
                "io.shakywords.Buzzers.Assign",
                ["team": "Owls\u{1B}[2J", "device": "/dev/input/event30", "key": "BTN_0"])
            #expect(escape.name == "org.varlink.service.InvalidParameter")
            #expect(escape.parameters["parameter"] == "team")
            let long = try await client.callError(
                "io.shakywords.Buzzers.Assign",
                [
                    "team": .string(String(repeating: "O", count: 300_000)), "device": "/dev/input/event30",
                    "key": "BTN_TRIGGER_HAPPY11",
                ])
            #expect(long.name == "io.shakywords.Buzzers.InvalidAssignment")

            // A team named twice is asked once (its second turn took the place of its first button); an empty name,
            // which no button could be saved for, is refused rather than waited for.
            let twice = try await client.call(
                "io.shakywords.Buzzers.Join", ["teams": ["Foxes", " foxes "]],
                as: ShakyAPI.BuzzersInterface.JoinReply.self)
            #expect(twice.teams == ["Foxes"])
            let emptyName = try await client.callError("io.shakywords.Buzzers.Join", ["teams": ["Owls", " "]])
            #expect(emptyName.name == "io.shakywords.Buzzers.InvalidAssignment")
            let clearNobody = try await client.callError("io.shakywords.Buzzers.Clear", ["team": ""])
            #expect(clearNobody.name == "io.shakywords.Buzzers.InvalidAssignment")
            try await client.call("io.shakywords.Buzzers.Clear", ["team": "nobody"])

            let cleared = try await client.call(
                "io.shakywords.Buzzers.Clear", ["team": "owls"], as: ShakyAPI.BuzzersInterface.ClearReply.self)
            #expect(cleared.cleared == 2)
            let rest = try await client.call("io.shakywords.Buzzers.List", as: ShakyAPI.BuzzersInterface.ListReply.self)
            #expect(rest.assignments.map(\.team) == ["Foxes"])
        }
    }

    @Test("Watch reports presses with their kernel time and outcome, and devices going and coming back")
    func watchReportsPressesAndDevices() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.call("io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let buzzers = client.daemon.buzzers
            await buzzers.handle(.attached(Self.buzz))
            try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Foxes", "device": .string(Self.buzz.identity), "key": "BTN_TRIGGER_HAPPY1"])
            // Three watchers (a board, a host, a phone), each told every notice.
            var connections: [VarlinkClient] = []
            var iterators: [AsyncThrowingStream<ShakyAPI.BuzzersInterface.WatchReply, any Error>.AsyncIterator] = []
            for _ in 0..<3 {
                let connection = try await client.connect()
                connections.append(connection)
                iterators.append(try await ShakyAPI.BuzzersInterface.Client(connection).watch().makeAsyncIterator())
            }
            try await client.game("Next")
            // The watchers are attached once the daemon has read their calls: wait (bounded) for them.
            let deadline = ContinuousClock.now + .seconds(10)
            while await buzzers.watcherCount < 3, ContinuousClock.now < deadline { await Task.yield() }
            #expect(await buzzers.watcherCount == 3)
            await buzzers.handle(Self.press(key: 0x2c0, kernelMilliseconds: 5_123))
            await buzzers.handle(.gone(identity: Self.buzz.identity, devicePath: Self.buzz.devicePath))
            await buzzers.handle(.back(identity: Self.buzz.identity, devicePath: "/dev/input/event31"))
            var seenByEach: [[ShakyAPI.BuzzerEvent]] = []
            for index in iterators.indices {
                var seen: [ShakyAPI.BuzzerEvent] = []
                while seen.count < 3, let reply = try await iterators[index].next() { seen.append(reply.event) }
                seenByEach.append(seen)
            }
            let seen = seenByEach[0]
            #expect(seenByEach[1] == seen && seenByEach[2] == seen)
            #expect(seen.map(\.kind) == [.pressed, .deviceGone, .deviceBack])
            #expect(seen.first?.team == "Foxes")
            #expect(seen.first?.outcome == "buzzed")
            #expect(seen.first?.order == 1)
            #expect(seen.first?.kernelTime == 5.123)
            #expect(seen.last?.path == "/dev/input/event31")
            for connection in connections { await connection.close() }
        }
    }

    @Test("A Watch that stops reading is dropped at the queue limit, and the log says so once, not as a failed call")
    func stalledWatcherIsDroppedAndLogged() async throws {
        let database = try AppDatabase.inMemory(builtinPacks: .skip)
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(), logger: quiet)
        let buzzers = BuzzerService(runtime: runtime, database: database, logger: quiet)
        let log = LogRecorder()
        let service = try ShakyService.make(
            runtime: runtime, watchers: WatcherHub(logger: quiet), database: database,
            settings: try PreferencesController(
                database: database, sound: RecordingSoundPlayer(), sharingExecutorWith: runtime
            ) { _ in },
            accessPolicy: AllowEveryoneAccessPolicy(), logger: log.logger(), buzzers: buzzers)
        // A watcher that takes its first reply and never another.
        let watching = Task {
            try await service.handle(
                VarlinkCall(method: "io.shakywords.Buzzers.Watch", more: true), from: .currentProcess
            ) { _ in try await Task.sleep(for: .seconds(3600)) }
        }
        defer { watching.cancel() }
        await buzzers.handle(.attached(Self.buzz))
        let deadline = ContinuousClock.now + .seconds(10)
        while await buzzers.watcherCount == 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(await buzzers.watcherCount == 1)
        for _ in 0...ShakyService.watcherQueueLimit / 2 + 1 {
            await buzzers.handle(.gone(identity: Self.buzz.identity, devicePath: Self.buzz.devicePath))
            await buzzers.handle(.back(identity: Self.buzz.identity, devicePath: Self.buzz.devicePath))
        }
        while await buzzers.watcherCount == 1, ContinuousClock.now < deadline { await Task.yield() }
        #expect(await buzzers.watcherCount == 0)
        #expect(log.messages.withLock { $0 } == ["dropped a buzzers watcher that stopped reading"])
    }

    @Test("A press on a button kept for a team of another game is refused with the way to give it to a player")
    func aButtonOfATeamNotPlayingSaysHowToGiveItOn() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.call("io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let buzzers = client.daemon.buzzers
            await buzzers.handle(.attached(Self.buzz))
            try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Bears", "device": .string(Self.buzz.identity), "key": "BTN_TRIGGER_HAPPY1"])
            let connection = try await client.connect()
            let events = try await ShakyAPI.BuzzersInterface.Client(connection).watch()
            var iterator = events.makeAsyncIterator()
            try await client.game("Next")
            let deadline = ContinuousClock.now + .seconds(10)
            while await buzzers.watcherCount == 0, ContinuousClock.now < deadline { await Task.yield() }
            await buzzers.handle(Self.press(key: 0x2c0, kernelMilliseconds: 5_123))
            let pressed = try await iterator.next()?.event
            #expect(pressed?.team == "Bears")
            #expect(pressed?.outcome == "refused")
            #expect(pressed?.message?.contains("Bears") == true, "\(String(describing: pressed))")
            #expect(
                pressed?.message?.contains("shaky buzzers join") == true,
                "what the host can do: \(String(describing: pressed?.message))")
            await connection.close()
        }
    }

    @Test("Game.Watch reports presses that did nothing and a joining a new game of other teams ended")
    func gameWatchReportsPressesThatDidNothingAndAnEndedJoining() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.call("io.shakywords.Game.New", PartyPack.newGame(teams: ["Owls", "Foxes"]))
            let daemon = client.daemon
            await daemon.buzzers.handle(.attached(Self.buzz))
            let connection = try await client.connect()
            let events = try await ShakyAPI.GameInterface.Client(connection).watch()
            var iterator = events.makeAsyncIterator()
            #expect(try await iterator.next()?.event.kind == .state)
            // Handset 3's button, nobody's, three times within a second: told once.
            for milliseconds in [1_000, 1_300, 1_600] {
                await daemon.buzzers.handle(Self.press(key: 0x2ca, kernelMilliseconds: milliseconds))
            }
            try await client.call("io.shakywords.Buzzers.Join")
            await daemon.buzzers.handle(Self.press(key: 0x2c5, kernelMilliseconds: 2_000))
            // Foxes press the button Owls just took: it is Owls'.
            await daemon.buzzers.handle(Self.press(key: 0x2c5, kernelMilliseconds: 2_500))
            try await client.call(
                "io.shakywords.Game.New",
                PartyPack.newGame(teams: ["Bears", "Wolves"]).merging(["replace": true]) { $1 })
            var buttons: [ShakyAPI.ButtonEvent] = []
            while buttons.last?.kind != .joinEnded, let reply = try await iterator.next() {
                if let button = reply.event.buzzer { buttons.append(button) }
            }
            #expect(buttons.map(\.kind) == [.pressed, .joinAsking, .joined, .joinAsking, .pressed, .joinEnded])
            let nobodys = buttons.first
            #expect(nobodys?.outcome == "unassigned")
            #expect(nobodys?.team == nil)
            #expect(nobodys?.keyName == "BTN_TRIGGER_HAPPY11")
            #expect(nobodys?.device == Self.buzz.identity)
            #expect(nobodys?.path == Self.buzz.devicePath)
            #expect(nobodys?.kernelTime == 1)
            #expect(
                nobodys?.message?.contains("shaky buzzers assign TEAM \(Self.buzz.identity) BTN_TRIGGER_HAPPY11")
                    == true,
                "\(String(describing: nobodys?.message))")
            let taken = buttons.dropLast().last
            #expect(taken?.outcome == "taken")
            #expect(taken?.team == "Owls")
            #expect(taken?.asking == "Foxes")
            #expect(taken?.kernelTime == 2.5)
            let ended = buttons.last
            #expect(ended?.team == "Foxes", "the team that was asked")
            #expect(ended?.message?.contains("shaky buzzers join") == true)
            #expect(await daemon.buzzers.joining() == nil)
            await connection.close()
        }
    }

    @Test("Game.Watch reports the buttons too: a lock-out, a buzz after its buzz event, devices, a clear")
    func gameWatchReportsButtons() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.call(
                "io.shakywords.Game.New",
                PartyPack.newGame(teams: ["Owls", "Foxes"], rules: ["earlyPressLockout": 2]))
            let daemon = client.daemon
            await daemon.buzzers.handle(.attached(Self.buzz))
            try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Foxes", "device": .string(Self.buzz.identity), "key": "BTN_TRIGGER_HAPPY1"])
            try await client.call(
                "io.shakywords.Buzzers.Assign",
                ["team": "Owls", "device": .string(Self.buzz.identity), "key": "BTN_TRIGGER_HAPPY6"])
            let connection = try await client.connect()
            let events = try await ShakyAPI.GameInterface.Client(connection).watch()
            var iterator = events.makeAsyncIterator()
            // The first event is the state: the watcher is attached from then on.
            #expect(try await iterator.next()?.event.kind == .state)
            // Owls press before the question opens; the Foxes buzz once it is open.
            await daemon.buzzers.handle(Self.press(key: 0x2c5, kernelMilliseconds: 1_000))
            try await client.game("Next")
            await daemon.buzzers.handle(Self.press(key: 0x2c0, kernelMilliseconds: 9_250))
            await daemon.buzzers.handle(.gone(identity: Self.buzz.identity, devicePath: Self.buzz.devicePath))
            await daemon.buzzers.handle(.back(identity: Self.buzz.identity, devicePath: "/dev/input/event31"))
            let cleared = try await client.call("io.shakywords.Buzzers.Clear", ["team": "owls"])
            #expect(cleared["cleared"] == 1)
            var seen: [ShakyAPI.Event] = []
            while seen.filter({ $0.kind == .buzzer }).count < 5, let reply = try await iterator.next() {
                if reply.event.kind == .buzzer || reply.event.kind == .buzz { seen.append(reply.event) }
            }
            let buttons = seen.compactMap(\.buzzer)
            #expect(buttons.map(\.kind) == [.pressed, .pressed, .deviceGone, .deviceBack, .cleared])
            #expect(buttons.last?.team == "owls")
            #expect(buttons.last?.cleared == 1)
            #expect(buttons.first?.team == "Owls")
            #expect(buttons.first?.outcome == "lockedOut")
            #expect(buttons.first?.lockedFor == 2)
            #expect(buttons.first?.kernelTime == 1)
            #expect(buttons.dropFirst().first?.team == "Foxes")
            #expect(buttons.dropFirst().first?.outcome == "buzzed")
            #expect(buttons.dropFirst().first?.kernelTime == 9.25)
            #expect(buttons.dropLast().last?.path == "/dev/input/event31")
            // The buzz comes first, then the press that made it.
            #expect(seen.map(\.kind) == [.buzzer, .buzz, .buzzer, .buzzer, .buzzer, .buzzer])
            await connection.close()
        }
    }
}

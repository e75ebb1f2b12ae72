import Foundation
import Logging
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Testing
import TriviaEngine

/// Buttons to buzzes: press to join, assignments kept, lights in the team's colour, unplug and replug.
@Suite(.serialized)
struct BuzzerServiceTests {
    struct Harness {
        let database: AppDatabase
        let clock: ManualClock
        let runtime: GameRuntime
        let service: BuzzerService
        let folder: TemporaryDirectory
        let buzz: BuzzerCandidate
        let bar: BuzzerCandidate
    }

    static let buzzIdentity = "pci-0000:00:14.0-usb-0:2:1.0"
    static let barIdentity = "bluetooth-dualsense"

    /// A light emulated as sysfs attribute files in a temporary folder.
    static func makeLight(
        in folder: TemporaryDirectory, name: String, slot: Int?, multicolour: Bool
    ) throws
        -> BuzzerLight
    {
        let path = folder.appending(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "0\n".write(toFile: path + "/brightness", atomically: false, encoding: .utf8)
        try (multicolour ? "255\n" : "1\n").write(toFile: path + "/max_brightness", atomically: false, encoding: .utf8)
        if multicolour {
            try "red green blue\n".write(toFile: path + "/multi_index", atomically: false, encoding: .utf8)
            try "0 0 0\n".write(toFile: path + "/multi_intensity", atomically: false, encoding: .utf8)
        }
        return BuzzerLight(path: path, name: name, isMulticolour: multicolour, slot: slot)
    }

    static func harness(
        teams: [String] = ["Owls", "Foxes"], earlyPressLockout: Duration? = nil,
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> Harness {
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        for (text, answer) in [("Largest ocean?", "Pacific"), ("Tallest animal?", "Giraffe")] {
            try database.addQuestion(Question(text: text, answer: answer, difficulty: .easy), toPack: "Quiz")
        }
        let clock = ManualClock()
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(clock), sound: RecordingSoundPlayer(), logger: logger)
        _ = try await runtime.newGame(
            NewGameRequest(teams: teams, questionCount: 2, earlyPressLockout: earlyPressLockout, seed: 3))
        let folder = try TemporaryDirectory(prefix: "buzzer-leds")
        let buzzLights = try (1...4).map { (handset: Int) in
            try makeLight(in: folder, name: "0003:054C:0002.0001::buzz\(handset)", slot: handset, multicolour: false)
        }
        let buzz = BuzzerCandidate(
            devicePath: "/dev/input/event30", name: "Buzz", identity: buzzIdentity, kind: .buzz,
            keys: Array(0x2c0..<0x2d4), lights: buzzLights)
        let barLight = try makeLight(in: folder, name: "input40:rgb:indicator", slot: nil, multicolour: true)
        let bar = BuzzerCandidate(
            devicePath: "/dev/input/event40", name: "DualSense", identity: barIdentity, kind: .gamepad,
            keys: [0x130, 0x131], lights: [barLight])
        let service = BuzzerService(runtime: runtime, database: database, logger: logger)
        await service.handle(.attached(buzz))
        await service.handle(.attached(bar))
        return Harness(
            database: database, clock: clock, runtime: runtime, service: service, folder: folder, buzz: buzz, bar: bar)
    }

    static func press(
        _ identity: String, key: Int, kernelMilliseconds: Int, age: Duration = .zero, path: String = "/dev/input/x"
    ) -> ButtonPress {
        ButtonPress(
            button: ButtonID(device: identity, key: key), keyName: BuzzerKeys.name(key), devicePath: path,
            kernelTime: .milliseconds(kernelMilliseconds), age: age)
    }

    static func read(_ path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func pressToJoinGivesEachTeamTheFirstFreeButtonAndKeepsIt() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        var notices: [BuzzerNotice] = []
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        // Handset 2's buzz button, then handset 2 again (already taken, so said whose), then the DualSense's cross.
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)]))
        let again = Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 2)
        await harness.service.handle(.pressed([again]))
        #expect(await harness.service.joining()?.asking == "Foxes")
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 3)]))
        #expect(await harness.service.joining() == nil, "joining ends when every team has a button")
        continuation.finish()
        for await notice in stream { notices.append(notice) }
        #expect(
            notices == [
                .joinAsking(team: "Owls"),
                .joined(
                    team: "Owls", device: Self.buzzIdentity, keyName: "BTN_TRIGGER_HAPPY6", devicePath: "/dev/input/x"),
                .joinAsking(team: "Foxes"), .takenPress(again, owner: "Owls", asking: "Foxes"),
                .joined(team: "Foxes", device: Self.barIdentity, keyName: "BTN_SOUTH", devicePath: "/dev/input/x"),
            ])
        let saved = try harness.database.buzzerAssignments()
        #expect(saved.map(\.team) == ["Foxes", "Owls"])
        #expect(saved.map(\.keyCode) == [0x130, 0x2c5])
        // The joining team's light says its press was taken: handset 2's LED.
        #expect(Self.read(harness.buzz.lights[1].path + "/brightness") == "1")
    }

    @Test func aTeamThatJoinedBuzzesWhileTheJoiningStillWaitsForAnother() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)]))
        // The host leaves the joining (Ctrl-C on `shaky buzzers join`) and opens a question; Foxes never pressed.
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(2))
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 2_000)]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Owls"], "Owls' button buzzes")
        #expect(await harness.service.joining()?.asking == "Foxes", "Foxes' first press still joins")
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 2_100)]))
        #expect(await harness.service.joining() == nil)
        #expect(try harness.database.buzzerAssignments().map(\.team) == ["Foxes", "Owls"])
    }

    /// A second joining left waiting (the host checked the buttons, then Ctrl-C) took a team's own button, pressed
    /// during a question, for the team it asked: the press did not buzz, and that team lost its button. Nor does a
    /// stray press on a free button take the working button of the team asked.
    @Test func aJoiningLeftWaitingDoesNotTakeATeamsButtonDuringAQuestion() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)]))
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 2)]))
        #expect(await harness.service.joining() == nil)
        // Joining again, left waiting for Owls; a question opens and Foxes press their own button.
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(2))
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 2_000)]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Foxes"], "Foxes' button buzzes")
        #expect(try harness.database.buzzerAssignments().map(\.team) == ["Foxes", "Owls"], "both keep their buttons")
        #expect(await harness.service.joining()?.asking == "Owls")
        // A stray press on a button no team has does not take Owls' working one from them during play.
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x131, kernelMilliseconds: 2_100)]))
        #expect(await harness.service.joining()?.asking == "Owls")
        #expect(try harness.database.buzzerAssignments().filter { $0.team == "Owls" }.map(\.keyCode) == [0x2c5])
    }

    /// A joining left waiting took the host's typing on a keyboard not grabbed, during play, as the team asked's
    /// button: each key typed after it buzzed that team.
    @Test func aJoiningLeftWaitingTakesNoKeyTheHostTypesDuringAQuestion() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        let keyboard = BuzzerCandidate(
            devicePath: "/dev/input/event3", name: "USB Keyboard", identity: "pci-0000:00:14.0-usb-0:1:1.0",
            kind: .keyboard, keys: Array(1..<128), lights: [])
        await harness.service.handle(.attached(keyboard))
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)]))
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(2))
        await harness.service.handle(.pressed([Self.press(keyboard.identity, key: 30, kernelMilliseconds: 2_000)]))
        #expect(await harness.service.joining()?.asking == "Foxes")
        #expect(try harness.database.buzzerAssignments().map(\.team) == ["Owls"])
        #expect(try await harness.runtime.status().buzzOrder.isEmpty)
        // A button of a buzzer device still joins Foxes, who have none.
        await harness.service.handle(.pressed([Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 2_100)]))
        #expect(await harness.service.joining() == nil)
    }

    @Test func aNewGameOfOtherTeamsEndsTheJoiningOfTheOldOnesAndSaysSo() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        let status = try await harness.runtime.newGame(
            NewGameRequest(teams: ["Bears", "Wolves"], questionCount: 2, seed: 4, replace: true))
        await harness.service.follow(.state(status))
        #expect(await harness.service.joining() == nil, "Owls no longer play: nobody is to press for them")
        let press = Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)
        await harness.service.handle(.pressed([press]))
        #expect(try harness.database.buzzerAssignments().isEmpty, "a press gives no button to a team not playing")
        continuation.finish()
        var notices: [BuzzerNotice] = []
        for await notice in stream { notices.append(notice) }
        // The board and `shaky play` stop asking Owls to press at once.
        #expect(
            notices == [
                .joinAsking(team: "Owls"), .joinEnded(team: "Owls", reason: .otherTeams), .unassignedPress(press),
            ])
    }

    @Test func anotherJoiningEndsTheOneUnderWayAndSaysSo() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c5, kernelMilliseconds: 1)]))
        #expect(await harness.service.startJoin(teams: ["Foxes"]) == ["Foxes"])
        continuation.finish()
        var notices: [BuzzerNotice] = []
        for await notice in stream { notices.append(notice) }
        #expect(
            notices == [
                .joinAsking(team: "Owls"),
                .joined(
                    team: "Owls", device: Self.buzzIdentity, keyName: "BTN_TRIGGER_HAPPY6", devicePath: "/dev/input/x"),
                .joinAsking(team: "Foxes"), .joinEnded(team: "Foxes", reason: .replaced), .joinAsking(team: "Foxes"),
            ])
    }

    /// A harness where Owls has handset 1 of the Buzz!, with the notices its service tells.
    static func owlsOnHandset1() async throws -> (
        Harness, AsyncStream<BuzzerNotice>, AsyncStream<BuzzerNotice>.Continuation
    ) {
        let harness = try await Self.harness()
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buzzIdentity, keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1", team: "Owls"))
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        return (harness, stream, continuation)
    }

    @Test func aPressOnAButtonNoTeamHasIsToldAtMostOncePerButtonEveryFewSeconds() async throws {
        let (harness, stream, continuation) = try await Self.owlsOnHandset1()
        defer { harness.folder.remove() }
        // Handset 3, nobody's, hammered on before the question (kernel times in ms); the DualSense's cross once.
        let handset3 = [0, 400, 2_999, 3_000, 3_100].map {
            Self.press(Self.buzzIdentity, key: 0x2cb, kernelMilliseconds: 10_000 + $0)
        }
        let cross = Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 10_200)
        await harness.service.handle(.pressed([handset3[0], cross]))
        await harness.service.handle(.pressed([handset3[1]]))
        await harness.service.handle(.pressed([handset3[2]]))
        // While the question is open too; Owls' button buzzes in the same batch.
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(1))
        let owls = Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 13_000)
        await harness.service.handle(.pressed([handset3[3], owls]))
        await harness.service.handle(.pressed([handset3[4]]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Owls"])
        continuation.finish()
        var notices: [BuzzerNotice] = []
        for await notice in stream { notices.append(notice) }
        #expect(notices.count == 4, "\(notices)")
        #expect(
            notices.prefix(3)
                == [.unassignedPress(handset3[0]), .unassignedPress(cross), .unassignedPress(handset3[3])])
        guard case .pressed(let team, _, _, .buzzed(order: 1), _)? = notices.last else {
            Issue.record("Owls' press buzzed: \(notices)")
            return
        }
        #expect(team == "Owls")
    }

    @Test("A team's button hammered on after it buzzed is told refused at most once every few seconds")
    func aHammeredButtonIsToldRefusedAtMostOncePerInterval() async throws {
        let (harness, stream, continuation) = try await Self.owlsOnHandset1()
        defer { harness.folder.remove() }
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(1))
        // Owls buzzes, then presses ten times in 200 ms, and once more 3 s after the first of those.
        let presses = [0, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 3_100].map {
            Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 20_000 + $0)
        }
        for press in presses { await harness.service.handle(.pressed([press])) }
        continuation.finish()
        var outcomes: [String] = []
        for await notice in stream {
            if case .pressed(_, _, let time, let outcome, _) = notice { outcomes.append("\(time): \(outcome)") }
        }
        #expect(outcomes.count == 3, "the buzz, one refusal, one more 3 s later: \(outcomes)")
    }

    @Test func aKeyNoTeamHasOnAKeyboardIsTypingUnlessKeyboardsAreGrabbed() async throws {
        let keyboard = BuzzerCandidate(
            devicePath: "/dev/input/event3", name: "USB Keyboard", identity: "pci-0000:00:14.0-usb-0:1:1.0",
            kind: .keyboard, keys: Array(1..<128), lights: [])
        for grabsKeyboards in [false, true] {
            let harness = try await Self.harness()
            defer { harness.folder.remove() }
            let service = BuzzerService(
                runtime: harness.runtime, database: harness.database, grabsKeyboards: grabsKeyboards,
                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
            await service.handle(.attached(keyboard))
            await service.handle(.attached(harness.buzz))
            try harness.database.assignBuzzer(
                BuzzerAssignment(device: keyboard.identity, keyCode: 57, keyName: "KEY_SPACE", team: "Owls"))
            let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
            await service.setNoticeHandler { continuation.yield($0) }
            try await harness.runtime.makeMove(.nextQuestion)
            harness.clock.advance(by: .seconds(1))
            // The host types `next` on the keyboard; a handset nobody has is pressed; Owls press their space bar.
            let typed = [49, 18, 45, 20].enumerated().map { index, key in
                Self.press(keyboard.identity, key: key, kernelMilliseconds: 20_000 + 100 * index)
            }
            let handset = Self.press(Self.buzzIdentity, key: 0x2cb, kernelMilliseconds: 20_500)
            let space = Self.press(keyboard.identity, key: 57, kernelMilliseconds: 20_600)
            await service.handle(.pressed(typed + [handset, space]))
            continuation.finish()
            var notices: [BuzzerNotice] = []
            for await notice in stream { notices.append(notice) }
            let unassigned = notices.compactMap { notice -> ButtonPress? in
                if case .unassignedPress(let press) = notice { press } else { nil }
            }
            #expect(unassigned == (grabsKeyboards ? typed : []) + [handset], "grabbed: \(grabsKeyboards)")
            #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Owls"])
        }
    }

    @Test func aNewGameOfTheSameTeamsKeepsTheirJoining() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        #expect(await harness.service.startJoin() == ["Owls", "Foxes"])
        let status = try await harness.runtime.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 2, seed: 4, replace: true))
        await harness.service.follow(.state(status))
        #expect(await harness.service.joining()?.asking == "Owls")
    }

    @Test func assignedButtonsBuzzInKernelOrderAndLightTheTeamUntilTheRoundEnds() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buzzIdentity, keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1", team: "Owls"))
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.barIdentity, keyCode: 0x130, keyName: "BTN_SOUTH", team: "Foxes"))
        let (events, continuation) = AsyncStream.makeStream(of: RuntimeEvent.self)
        await harness.runtime.setEventObserver { continuation.yield($0) }
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(3))
        // Read Owls first, but the Foxes' press is 5 ms older by the kernel's clock.
        await harness.service.handle(
            .pressed([
                Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 9_005, age: .milliseconds(35)),
                Self.press(Self.barIdentity, key: 0x130, kernelMilliseconds: 9_000, age: .milliseconds(40)),
                Self.press("unknown-device", key: 30, kernelMilliseconds: 8_000, age: .milliseconds(50)),
            ]))
        let status = try await harness.runtime.status()
        #expect(status.phase == .answering(team: "Foxes"))
        #expect(status.buzzOrder.map(\.team) == ["Foxes", "Owls"])
        // Buzz times are the kernel's: 3 s − 40 ms after the question opened.
        #expect(status.buzzOrder.first?.elapsed == .milliseconds(2_960), "\(status.buzzOrder)")
        continuation.finish()
        for await event in events { await harness.service.follow(event) }
        #expect(Self.read(harness.bar.lights[0].path + "/brightness") == "255")
        #expect(Self.read(harness.bar.lights[0].path + "/multi_intensity") == "0 64 255", "Foxes sit second: blue")
        #expect(Self.read(harness.buzz.lights[0].path + "/brightness") == "1")
        await harness.service.follow(.action(.answerRevealed(answer: "Pacific", winner: nil, end: .timeUp)))
        #expect(Self.read(harness.bar.lights[0].path + "/brightness") == "0")
        #expect(Self.read(harness.buzz.lights[0].path + "/brightness") == "0")
    }

    @Test func anUnpluggedDeviceKeepsItsTeamAndBuzzesAgainWhenBack() async throws {
        let harness = try await Self.harness()
        defer { harness.folder.remove() }
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buzzIdentity, keyCode: 0x2ca, keyName: "BTN_TRIGGER_HAPPY11", team: "Foxes"))
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        await harness.service.handle(.gone(identity: Self.buzzIdentity, devicePath: "/dev/input/event30"))
        #expect(
            await harness.service.knownDevices().first { $0.candidate.identity == Self.buzzIdentity }?.isPresent
                == false)
        try await harness.runtime.makeMove(.nextQuestion)
        // Plugged into the same port again, it comes back as another node.
        await harness.service.handle(.back(identity: Self.buzzIdentity, devicePath: "/dev/input/event35"))
        await harness.service.handle(
            .pressed([Self.press(Self.buzzIdentity, key: 0x2ca, kernelMilliseconds: 100, path: "/dev/input/event35")]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Foxes"])
        continuation.finish()
        var notices: [BuzzerNotice] = []
        for await notice in stream { notices.append(notice) }
        #expect(notices.first == .deviceGone(identity: Self.buzzIdentity, devicePath: "/dev/input/event30"))
        #expect(notices.dropFirst().first == .deviceBack(identity: Self.buzzIdentity, devicePath: "/dev/input/event35"))
        #expect(
            await harness.service.knownDevices().first { $0.candidate.identity == Self.buzzIdentity }?.candidate
                .devicePath == "/dev/input/event35")
    }

    @Test func aDeviceThatKeepsComingAndGoingIsLoggedOnceAMinuteAndStillServes() async throws {
        let recorder = LogRecorder()
        let harness = try await Self.harness(logger: recorder.logger())
        defer { harness.folder.remove() }
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buzzIdentity, keyCode: 0x2ca, keyName: "BTN_TRIGGER_HAPPY11", team: "Foxes"))
        for _ in 0..<50 {
            await harness.service.handle(.gone(identity: Self.buzzIdentity, devicePath: "/dev/input/event30"))
            await harness.service.handle(.back(identity: Self.buzzIdentity, devicePath: "/dev/input/event30"))
        }
        #expect(recorder.count(startingWith: "buzzer device gone") == 1)
        #expect(recorder.count(startingWith: "buzzer device back") == 1)
        try await harness.runtime.makeMove(.nextQuestion)
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2ca, kernelMilliseconds: 100)]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Foxes"])
    }

    /// A harness whose games lock out early presses for 2 s, Owls on handset 1's buzz button, and its notices.
    static func lockOutHarness() async throws -> (
        Harness, AsyncStream<BuzzerNotice>, AsyncStream<BuzzerNotice>.Continuation
    ) {
        let harness = try await Self.harness(earlyPressLockout: .seconds(2))
        try harness.database.assignBuzzer(
            BuzzerAssignment(device: Self.buzzIdentity, keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1", team: "Owls"))
        let (stream, continuation) = AsyncStream.makeStream(of: BuzzerNotice.self)
        await harness.service.setNoticeHandler { continuation.yield($0) }
        return (harness, stream, continuation)
    }

    @Test func anEarlyPressLocksOutOnlyWhenTheGamesRuleIsOn() async throws {
        let (harness, stream, continuation) = try await Self.lockOutHarness()
        defer { harness.folder.remove() }
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 10)]))
        try await harness.runtime.makeMove(.nextQuestion)
        harness.clock.advance(by: .seconds(1))
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 1010)]))
        #expect(try await harness.runtime.status().buzzOrder.isEmpty)
        harness.clock.advance(by: .seconds(1))
        await harness.service.handle(.pressed([Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 2010)]))
        #expect(try await harness.runtime.status().buzzOrder.map(\.team) == ["Owls"])
        continuation.finish()
        var outcomes: [PressOutcome] = []
        for await case .pressed(_, _, _, let outcome, _) in stream { outcomes.append(outcome) }
        #expect(outcomes == [.lockedOut(until: .seconds(2)), .lockedOut(until: .seconds(2)), .buzzed(order: 1)])
    }

    /// How long a press is locked out is counted from the press, as the kernel stamped it, not from its handling a
    /// reorder window (or more) later.
    @Test func aLockOutIsToldFromThePress() async throws {
        let (harness, stream, continuation) = try await Self.lockOutHarness()
        defer { harness.folder.remove() }
        harness.clock.advance(by: .seconds(1))
        // Pressed at 0.5 s, handled at 1 s: locked out until 2.5 s, 2 s from the press.
        await harness.service.handle(
            .pressed([Self.press(Self.buzzIdentity, key: 0x2c0, kernelMilliseconds: 500, age: .milliseconds(500))]))
        continuation.finish()
        var lockedFor: [Duration?] = []
        for await case .pressed(_, _, _, _, let locked) in stream { lockedFor.append(locked) }
        #expect(lockedFor == [.seconds(2)])
    }
}

extension BuzzerServiceTests {
    @Test func aGpioLedLabelledForTheTeamsSeatLightsWhenItBuzzes() async throws {
        let folder = try TemporaryDirectory(prefix: "buzzer-team-leds")
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        try database.createPack(named: "Quiz")
        try database.addQuestion(Question(text: "Largest ocean?", answer: "Pacific", difficulty: .easy), toPack: "Quiz")
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(ManualClock()), sound: RecordingSoundPlayer(), logger: logger)
        _ = try await runtime.newGame(
            NewGameRequest(teams: ["Owls", "Foxes"], questionCount: 1, seed: 3))
        let seats = try (1...2).map { (seat: Int) in
            try Self.makeLight(in: folder, name: "team\(seat):green:shaky-team\(seat)", slot: seat, multicolour: false)
        }
        let service = BuzzerService(runtime: runtime, database: database, teamLights: seats, logger: logger)
        try await runtime.makeMove(.nextQuestion)
        await service.follow(
            .action(.buzzed(team: "Foxes", order: 1, elapsed: .seconds(1), indicationRemaining: .seconds(20))))
        #expect(Self.read(seats[1].path + "/brightness") == "1", "Foxes sit second")
        #expect(Self.read(seats[0].path + "/brightness") == "0")
        await service.follow(
            .action(.gameOver(GameResult(teams: [], questionsPlayed: 1, questionCount: 1, endedEarly: false))))
        #expect(Self.read(seats[1].path + "/brightness") == "0")
    }
}

extension BuzzerServiceTests {
    @Test func onlyANewGameABuzzAndTheEndOfARoundOrGameChangeTheLights() {
        let buzz = RuntimeEvent.action(
            .buzzed(team: "Foxes", order: 1, elapsed: .seconds(1), indicationRemaining: .seconds(20)))
        #expect(BuzzerService.lightChange(for: buzz) == .light(team: "Foxes"))
        #expect(BuzzerService.lightChange(for: .state(nil)) == .allOff)
        #expect(
            BuzzerService.lightChange(for: .action(.answerRevealed(answer: "Pacific", winner: nil, end: .timeUp)))
                == .allOff)
        let over = GameResult(teams: [], questionsPlayed: 1, questionCount: 1, endedEarly: false)
        #expect(BuzzerService.lightChange(for: .action(.gameOver(over))) == .allOff)
        // The events of a running round that leave the lights as they are: the daemon does not hand them over.
        #expect(BuzzerService.lightChange(for: .action(.tick(phase: .indication, remaining: .seconds(59)))) == nil)
        #expect(BuzzerService.lightChange(for: .action(.paused)) == nil)
        #expect(BuzzerService.lightChange(for: .paused(remaining: .seconds(3))) == nil)
        #expect(BuzzerService.lightChange(for: .sensor(present: true, device: nil)) == nil)
    }
}

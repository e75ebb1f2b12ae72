import Foundation
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Testing

/// A DualSense's motion sensors shake for hints next to the board's own sensor (a trace), against the real
/// `shakyd serve` reading the emulated evdev node through libevdev: each device's shake is a hint, and the hint
/// says which device gave it and, for the controller, the team its buttons belong to.
@Suite(.serialized)
struct ShakerUmockdevTests {
    /// The board lies still, then is shaken 10 s after the question opens (well after the controller's shakes).
    static func boardTrace() -> String {
        SyntheticTrace.shake(device: "the board", seconds: 12, shakingFrom: 10, to: 11)
    }

    @Test func aControllerShakeAndABoardShakeAreHintsThatSayWhichDeviceAndWhoseTeam() async throws {
        let folder = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("board.csv")
        try Self.boardTrace().write(to: trace, atomically: true, encoding: .utf8)
        // The DualSense's motion node plays its firm shake once shakyd starts reading it as a shaker.
        let device = { (suffix: String) in UmockdevHarness.fixture("devices/dualsense.\(suffix)") }
        let command =
            [
                "/usr/bin/python3",  // Debian's interpreter: the only one that loads python3-gi
                UmockdevHarness.fixture("devices/events-feeder.py"), device("umockdev"), "/dev/input/event30",
                device("ioctl"), device("events"), "reading a motion controller", "--",
                try UmockdevHarness.shakyd(),
            ]
        let wrapper = folder.appendingPathComponent("shakyd-with-a-dualsense")
        try ("#!/bin/sh\nexec " + command.map { "'\($0)'" }.joined(separator: " ") + " \"$@\"\n").write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)

        let daemon = try DaemonProcess(
            arguments: ["--input", "trace:\(trace.path)", "--buzzers", "none", "--log-level", "debug"],
            executable: wrapper)
        // The feeder does not pass SIGTERM on: shakyd is stopped through it, however the test ends.
        try await daemon.withCleanup(throughWrapper: true) {
            // The controller's buttons (the node beside its motion sensors) are the Foxes' buzzer.
            do {
                let database = try AppDatabase.open(path: daemon.databasePath, builtinPacks: .skip)
                try database.assignBuzzer(
                    BuzzerAssignment(
                        device: "name:Sony Interactive Entertainment DualSense Wireless Controller", keyCode: 0x130,
                        keyName: "BTN_SOUTH", team: "Foxes"))
            }
            try await daemon.start()
            let client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack(
                "Shakes",
                questions: [
                    ShakyAPI.Question(text: "Which animal has a trunk?", answer: "Elephant", difficulty: .easy)
                ])
            let watch = try await DaemonProcess.GameClient(try await daemon.connect()).watchInBackground()
            _ = try await watch.next(within: .seconds(10)) { $0.kind == .state }
            _ = try await client.new(
                ShakyAPI.GameInterface.NewParameters(
                    teams: ["Owls", "Foxes"], packs: ["Shakes"], questions: 1, seed: 5))
            _ = try await client.next()

            // Either may come first on a busy machine; each must come.
            var hints: [ShakyAPI.Event] = []
            let deadline = ContinuousClock.now + .seconds(45)
            while !(hints.contains { $0.shaker?.kind == .controller } && hints.contains { $0.shaker?.kind == .board }),
                ContinuousClock.now < deadline,
                let hint = try? await watch.next(within: deadline - ContinuousClock.now, where: { $0.kind == .hint })
            {
                hints.append(hint)
            }
            let shaker = hints.first { $0.shaker?.kind == .controller }?.shaker
            #expect(shaker?.kind == .controller, "the controller's shake is a hint; log:\n\(daemon.log())")
            #expect(shaker?.device == "/dev/input/event30")
            #expect(shaker?.name == "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors")
            #expect(shaker?.buttons == "name:Sony Interactive Entertainment DualSense Wireless Controller")
            #expect(shaker?.team == "Foxes")
            let boardHint = hints.first { $0.shaker?.kind == .board }
            #expect(boardHint?.shaker?.device == trace.path, "the board's shake is a hint too; log:\n\(daemon.log())")
            #expect(boardHint?.shaker?.team == nil)
            await watch.cancel()
            await client.transport.close()
            // The feeder does not pass SIGTERM on: stop shakyd itself, then the feeder exits with its status.
            #expect(await daemon.terminateThroughWrapper() == .exited(0), "\(daemon.log())")
        }
    }
}

import Foundation
import ShakyProtocol
import ShakyStore
import ShakyTesting
import Testing

/// A whole game played on emulated buttons and a trace's shake, against the real `shakyd serve` under umockdev.
/// The presses are replayed at fixed times after the device opens, so the game's calls must keep pace with them: it
/// runs with the device matrix, after the rest of the suite (amid a thousand other tests a loaded machine delayed the
/// question's opening past the presses meant for it).
@Suite(.serialized, .tags(.deviceMatrix))
struct BuzzerGameTests {
    /// One shake along x, 0.2 s after the sensor starts (when the question opens), then rest: the hint comes
    /// well before the buttons' next pair of presses (every 6 s, see game-event30.events).
    static func shakeTrace() -> String {
        SyntheticTrace.shake(device: "synthetic shake", seconds: 3, shakingFrom: 0.2, to: 1.2)
    }

    @Test func buttonsAndAShakePlayAGameToTheRightScoreboard() async throws {
        let folder = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("shake.csv")
        try Self.shakeTrace().write(to: trace, atomically: true, encoding: .utf8)
        // shakyd runs inside umockdev's emulated /sys and /dev with the buzzer devices and their event files.
        let nodes = [30, 31, 32, 33, 34].flatMap { node in
            ["-i", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).ioctl"))"]
        }
        let events = [30, 31].flatMap { node in
            ["-e", "/dev/input/event\(node)=\(UmockdevHarness.fixture("game-event\(node).events"))"]
        }
        let wrapper = folder.appendingPathComponent("shakyd-in-umockdev")
        let command =
            [try UmockdevHarness.umockdevRun(), "-d", UmockdevHarness.fixture("buzzers.umockdev")] + nodes + events
            + ["--", try UmockdevHarness.shakyd()]
        try ("#!/bin/sh\nexec " + command.map { "'\($0)'" }.joined(separator: " ") + " \"$@\"\n").write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)

        let daemon = try DaemonProcess(
            arguments: ["--input", "trace:\(trace.path)", "--buzzers", "auto", "--log-level", "debug"],
            executable: wrapper)
        // umockdev-run does not pass SIGTERM on: shakyd is stopped through it, however the test ends.
        try await daemon.withCleanup(throughWrapper: true) {
            // The teams' buttons, as a previous game's press-to-join left them.
            do {
                let database = try AppDatabase.open(path: daemon.databasePath, builtinPacks: .skip)
                try database.assignBuzzer(
                    BuzzerAssignment(
                        device: "pci-0000:00:14.0-usb-0:2:1.0", keyCode: 0x2c0, keyName: "BTN_TRIGGER_HAPPY1",
                        team: "Owls")
                )
                try database.assignBuzzer(
                    BuzzerAssignment(
                        device: "pci-0000:00:14.0-usb-0:3:1.0", keyCode: 0x120, keyName: "BTN_TRIGGER", team: "Foxes"))
            }
            try await daemon.start()
            let client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack(
                "Buttons",
                questions: [ShakyAPI.Question(text: "Which animal has a trunk?", answer: "Elephant", difficulty: .easy)]
            )
            let watch = try await DaemonProcess.GameClient(try await daemon.connect()).watchInBackground()
            _ = try await watch.next(within: .seconds(10)) { $0.kind == .state }
            _ = try await client.new(
                ShakyAPI.GameInterface.NewParameters(
                    teams: ["Owls", "Foxes"], packs: ["Buttons"], questions: 1, seed: 5))
            // Open the question just after a pair of presses, which come before it and are ignored: the next pair
            // comes 6 s later, long after the trace's shake (0.2 s into the question) has given its hint.
            let buzzersClient = ShakyAPI.BuzzersInterface.Client(try await daemon.connect())
            #expect(try await buzzersClient.list().reading == true, "a daemon with --buzzers auto reads buzzers")
            let buzzerEvents = try await buzzersClient.watch()
            let buzzerWatch = await WatchStream.reading(buzzerEvents)
            let early = try? await buzzerWatch.next(within: .seconds(30)) {
                $0.event.kind == .pressed && $0.event.team == "Owls"
            }
            await buzzerWatch.cancel()
            #expect(
                early?.event.outcome == "early", "a press before the question opens is ignored; log:\n\(daemon.log())")
            _ = try await client.next()

            let hint = try? await watch.next(within: .seconds(15)) { $0.kind == .hint }
            #expect(hint?.source == "shake", "no hint from the trace's shake; the log:\n\(daemon.log())")
            let up = try? await watch.next(within: .seconds(40)) { $0.kind == .teamUp }
            #expect(
                up?.team == "Foxes",
                "the arcade button went down 300 ms before the Buzz! handset; log:\n\(daemon.log())")
            let status = try await client.status()
            #expect(status.buzzes.map(\.team) == ["Foxes", "Owls"])
            #expect(status.hintsUsed == 1)
            let reply = try await client.answer(team: "Foxes", answer: "elephant")
            #expect(reply.correct)
            _ = try await client.next()
            let final = try await client.status()
            #expect(final.phase == .gameOver)
            #expect(final.teams.map(\.name) == ["Owls", "Foxes"])
            #expect(final.teams.map(\.score) == [0, 8], "10 points less one hint's 2")
            await watch.cancel()
            await client.transport.close()
            // umockdev-run does not pass SIGTERM on: stop shakyd itself, then umockdev-run exits with its status.
            #expect(await daemon.terminateThroughWrapper() == .exited(0), "\(daemon.log())")
        }
    }
}

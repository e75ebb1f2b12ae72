import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// A press on a button no team has, on the real evdev path: `shakyd serve` under umockdev reads GPIO buttons whose
/// KEY_1 nobody has, hammered on (see unassigned-event32.events), and tells `Buzzers.Watch` of it.
@Suite(.serialized)
struct UnassignedButtonTests {
    @Test func aButtonNoTeamHasIsToldWithItsDeviceAndKeyOncePerHammering() async throws {
        let folder = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = [30, 31, 32, 33, 34].flatMap { node in
            ["-i", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).ioctl"))"]
        }
        let events = ["-e", "/dev/input/event32=\(UmockdevHarness.fixture("unassigned-event32.events"))"]
        let wrapper = folder.appendingPathComponent("shakyd-in-umockdev")
        let command =
            [try UmockdevHarness.umockdevRun(), "-d", UmockdevHarness.fixture("buzzers.umockdev")] + nodes + events
            + ["--", try UmockdevHarness.shakyd()]
        try ("#!/bin/sh\nexec " + command.map { "'\($0)'" }.joined(separator: " ") + " \"$@\"\n").write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)

        let daemon = try DaemonProcess(arguments: ["--buzzers", "auto", "--log-level", "debug"], executable: wrapper)
        // umockdev-run does not pass SIGTERM on: shakyd is stopped through it, however the test ends.
        try await daemon.withCleanup(throughWrapper: true) {
            try await daemon.start()
            let buzzers = ShakyAPI.BuzzersInterface.Client(try await daemon.connect())
            let watch = await WatchStream.reading(try await buzzers.watch())
            // The watcher comes in at some point of the replay: it hears each hammering after that once, or none
            // of one it came into after its first press.
            var told: [ShakyAPI.BuzzerEvent] = []
            while told.count < 2,
                let reply = try? await watch.next(within: .seconds(60), where: { $0.event.kind == .pressed })
            {
                told.append(reply.event)
            }
            await watch.cancel()
            await buzzers.transport.close()
            #expect(told.map(\.outcome) == ["unassigned", "unassigned"], "\(told); the log:\n\(daemon.log())")
            #expect(told.map(\.keyName) == ["KEY_1", "KEY_1"])
            #expect(told.map(\.path) == ["/dev/input/event32", "/dev/input/event32"])
            #expect(told.map(\.device) == ["platform-button@11", "platform-button@11"])
            #expect(told.allSatisfy { $0.team == nil })
            let times = told.compactMap(\.kernelTime)
            #expect(
                times.count == 2 && times[0].truncatingRemainder(dividingBy: 4) == 2,
                "the first press of each: \(times)")
            #expect(times.count == 2 && times[1] - times[0] == 4, "the next hammering's first press: \(times)")
            #expect(
                told.first?.message?.contains("shaky buzzers assign TEAM platform-button@11 KEY_1") == true,
                "\(String(describing: told.first?.message))")
            #expect(await daemon.terminateThroughWrapper() == .exited(0), "\(daemon.log())")
        }
    }
}

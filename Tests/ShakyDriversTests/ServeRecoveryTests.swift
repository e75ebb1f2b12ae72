import Foundation
import ShakyTesting
import Testing

/// A running `shakyd serve` on emulated sensors (umockdev's testbed, driven by `Fixtures/serve-scenarios.py`):
/// a sensor plugged in after the start is used (a polled IIO one, and a DualSense's motion node), a polled sensor
/// whose reads fail for a moment goes on, and a buffered sensor whose interrupt is not wired is polled instead —
/// each seen through Sensor.Status.
@Suite struct ServeRecoveryTests {
    /// What one scenario printed: the Sensor.Status replies in order, and the whole output.
    struct Outcome {
        var statuses: [[String: Any]]
        var output: String
    }

    static func play(_ scenario: String, device: String? = nil) async throws -> Outcome {
        let python = "/usr/bin/python3"  // Debian's interpreter: the only one that loads python3-gi
        _ = try UmockdevHarness.tool("umockdev-wrapper", installHint: "install umockdev (make setup)")
        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = [
            UmockdevHarness.fixture("serve-scenarios.py"), scenario, try UmockdevHarness.shakyd(), directory.path,
        ]
        if let device { arguments.append(UmockdevHarness.fixture(device)) }
        let outcome = try await UmockdevHarness.run(python, arguments, timeout: 90)
        let output = outcome.standardOutput + outcome.standardError
        let statuses = outcome.standardOutput.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("STATUS ") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [String: Any]
        }
        #expect(outcome.status == 0, "\(output)")
        #expect(output.contains("exit=0"), "shakyd stopped cleanly: \(output)")
        return Outcome(statuses: statuses, output: output)
    }

    @Test func aSensorPluggedInAfterTheStartIsUsed() async throws {
        let outcome = try await Self.play("late-plug")
        try #require(outcome.statuses.count == 2, "\(outcome.output)")
        #expect(outcome.statuses[0]["state"] as? String == "absent")
        #expect(outcome.statuses[1]["state"] as? String == "ready")
        #expect(outcome.statuses[1]["driver"] as? String == "iio-poll")
        #expect(outcome.statuses[1]["device"] as? String == "/dev/iio:device0")
        #expect(outcome.output.contains("an accelerometer was plugged in"))
    }

    /// The issue's own case: with `shakyd serve --input auto` running and no sensor, a DualSense is plugged in.
    /// Its motion sensors become the sensor (not only a shaker next to none), and their shake is a hint.
    @Test func aControllerPluggedInAfterTheStartIsTheSensor() async throws {
        let outcome = try await Self.play("late-plug-controller", device: "devices/dualsense.umockdev")
        try #require(outcome.statuses.count == 4, "\(outcome.output)")
        #expect(outcome.statuses[0]["state"] as? String == "absent")
        for status in outcome.statuses.dropFirst() {
            #expect(status["driver"] as? String == "evdev", "\(status)")
            #expect(status["device"] as? String == "/dev/input/event30", "\(status)")
            #expect((status["frame"] as? String ?? "").hasPrefix("controller: x right, y out of the touchpad"))
        }
        #expect(outcome.statuses[1]["state"] as? String == "ready")
        #expect(outcome.statuses[2]["state"] as? String == "reading")
        #expect(outcome.statuses[3]["state"] as? String == "reading")
        #expect((outcome.statuses[3]["shakes"] as? Int ?? 0) >= 1, "its shake is detected: \(outcome.output)")
        #expect(outcome.statuses[3]["controllers"] as? [String] ?? [] == [], "the sensor is not also a shaker")
        let plugged = outcome.output.split(separator: "\n").first { $0.contains("an accelerometer was plugged in") }
        #expect(
            plugged?.contains("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors") == true,
            "the log names it: \(outcome.output)")
        let hints = outcome.output.split(separator: "\n").first { $0.hasPrefix("HINTS ") }.flatMap {
            Int($0.dropFirst(6))
        }
        #expect((hints ?? 0) >= 1, "the shake gave a hint: \(outcome.output)")
    }

    @Test func aPolledSensorWhoseReadsFailForAMomentGoesOn() async throws {
        let outcome = try await Self.play("glitch")
        try #require(outcome.statuses.count == 3, "\(outcome.output)")
        #expect(outcome.statuses.map { $0["state"] as? String } == ["reading", "reading", "reading"])
        // A shake that goes on past the detector's cooldown may count twice: the point is that one counts at all,
        // and that the shake after the glitch counts too.
        let counts = outcome.statuses.map { $0["shakes"] as? Int ?? 0 }
        #expect(counts[0] >= 1)
        #expect(counts[2] > counts[1], "a shake after the glitch is still detected: \(counts)")
        #expect(!outcome.output.contains("gone") && !outcome.output.contains("failed"), "\(outcome.output)")
    }

    @Test func aBufferThatNeverDeliversIsPolledInstead() async throws {
        let outcome = try await Self.play("unwired", device: "devices/mpu6050-unwired.umockdev")
        try #require(outcome.statuses.count == 3, "\(outcome.output)")
        #expect(outcome.statuses[0]["driver"] as? String == "iio-buffer")
        #expect(outcome.statuses[1]["driver"] as? String == "iio-poll")
        let message = outcome.statuses[1]["message"] as? String ?? ""
        #expect(message.contains("delivered no sample") && message.contains("polling instead"), "\(message)")
        #expect(outcome.output.components(separatedBy: "is read another way").count == 2, "logged once")
        #expect((outcome.statuses[2]["shakes"] as? Int ?? 0) >= 1, "the polled sensor is read: \(outcome.output)")
    }
}

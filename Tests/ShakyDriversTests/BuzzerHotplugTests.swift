import Foundation
import Testing

/// A buzzer device unplugged and plugged in again while the real reader runs (libudev monitor, libevdev), with
/// uevents sent by a umockdev testbed (Fixtures/buzzer-hotplug.py).
@Suite(.serialized)
struct BuzzerHotplugTests {
    @Test func anUnpluggedBuzzerIsReportedGoneAndIsReadAgainWhenBack() async throws {
        let outcome = try await UmockdevHarness.runTestbedScript(
            "buzzer-hotplug.py", [try UmockdevHarness.shakyd(), UmockdevHarness.fixtures.path])
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let identity = "pci-0000:00:14.0-usb-0:2:1.0"
        #expect(
            lines == [
                "attached\t/dev/input/event30\t\(identity)\tbuzz",
                "gone\t/dev/input/event30\t\(identity)",
                "back\t/dev/input/event35\t\(identity)",
                "pressed\t7.100000\t\(identity)\tBTN_TRIGGER_HAPPY6\t/dev/input/event35",
                "exit=0",
            ], "\(outcome.standardOutput)\n\(outcome.standardError)")
    }
}

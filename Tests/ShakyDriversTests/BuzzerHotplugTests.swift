import Foundation
import Testing

/// A buzzer device unplugged and plugged in again while the real reader runs (libudev monitor, libevdev), with
/// uevents sent by a umockdev testbed (Fixtures/buzzer-hotplug.py).
@Suite(.serialized)
struct BuzzerHotplugTests {
    @Test func anUnpluggedBuzzerIsReportedGoneAndIsReadAgainWhenBack() async throws {
        let python = "/usr/bin/python3"  // Debian's interpreter: the only one that loads python3-gi
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("/usr/bin/python3 is missing: install python3-gi and gir1.2-umockdev-1.0 (make setup)")
        }
        let outcome = try await UmockdevHarness.run(
            python,
            [
                UmockdevHarness.fixture("buzzer-hotplug.py"), try UmockdevHarness.shakyd(),
                UmockdevHarness.fixtures.path,
            ],
            timeout: 90)
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

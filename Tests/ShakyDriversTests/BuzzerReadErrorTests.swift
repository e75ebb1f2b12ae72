import Foundation
import Testing

/// A buzzer device whose read fails while it stays plugged in is opened again and read on: the real reader (libevdev)
/// against an emulated arcade encoder whose node is fed a partial `struct input_event` (Fixtures/buzzer-read-error.py).
@Suite(.serialized)
struct BuzzerReadErrorTests {
    @Test func aFailedReadOfAPluggedInDeviceDoesNotStopItsButtons() async throws {
        let outcome = try await UmockdevHarness.runTestbedScript(
            "buzzer-read-error.py", [try UmockdevHarness.shakyd(), UmockdevHarness.fixtures.path])
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let identity = "pci-0000:00:14.0-usb-0:3:1.0"
        // Not "gone": the device keeps its identity, and the press after the failed read reaches the caller.
        #expect(
            lines == [
                "attached\t/dev/input/event31\t\(identity)\tarcade",
                "pressed\t7.100000\t\(identity)\tBTN_TRIGGER\t/dev/input/event31",
                "reopened",
                "exit=0",
            ], "\(outcome.standardOutput)\n\(outcome.standardError)")
        #expect(outcome.standardError.contains("Invalid argument"), "\(outcome.standardError)")
    }
}

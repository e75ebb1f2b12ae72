import Foundation
import ShakyDrivers
import Testing

/// The real evdev buzzer path (libudev discovery, libevdev reading, sysfs LEDs) against a Buzz! dongle, an arcade
/// encoder, GPIO buttons, a keyboard and a power button emulated by umockdev (see make-buzzer-fixtures.py).
@Suite(.serialized)
struct BuzzerUmockdevTests {
    static let nodes = [30, 31, 32, 33, 34]

    /// `-i NODE=IOCTL` for every device, and `-e NODE=EVENTS` for those given.
    static func nodeFiles(events: [Int] = []) -> [String] {
        nodes.flatMap { node in
            ["-i", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).ioctl"))"]
        }
            + events.flatMap { node in
                ["-e", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).events"))"]
            }
    }

    @Test func listDevicesShowsEachButtonDeviceWithItsKeysAndLightsAndWhyOthersAreRejected() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "buzzers.umockdev", nodeFiles: Self.nodeFiles(), ["list-devices"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        func line(_ node: Int) -> String { lines.first { $0.hasPrefix("  /dev/input/event\(node)\t") } ?? "" }
        #expect(lines.first == "Buzzers (key and button devices):")
        #expect(
            line(30)
                == "  /dev/input/event30\tLogitech Logitech Buzz(tm) Controller V1\tbuzz\tid pci-0000:00:14.0-usb-0:2:1.0\t"
                + "20 keys (BTN_TRIGGER_HAPPY1, BTN_TRIGGER_HAPPY2, BTN_TRIGGER_HAPPY3… BTN_TRIGGER_HAPPY20)\t"
                + "lights 0003:054C:0002.0001::buzz1, 0003:054C:0002.0001::buzz2, 0003:054C:0002.0001::buzz3, "
                + "0003:054C:0002.0001::buzz4\tusable, grabbed", "\(outcome.standardOutput)")
        #expect(line(31).contains("\tarcade\tid pci-0000:00:14.0-usb-0:3:1.0\t12 keys (BTN_TRIGGER, BTN_THUMB"))
        #expect(
            line(32).contains("\tgpio-keys\tid platform-button@11\t2 keys (KEY_1, KEY_2)\tno lights\tusable, grabbed"))
        #expect(line(33).contains("\tkeyboard\tid platform-i8042-serio-0\t"))
        #expect(line(33).hasSuffix("usable, not grabbed (shared with the console)"))
        #expect(line(34) == "  /dev/input/event34\tPower Button\trejected: only system keys (power, sleep, volume…)")
        #expect(lines.contains("Buzzer devices usable: 4"))
    }

    @Test func pressesReadOutOfKernelOrderAreRankedByKernelTime() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "buzzers.umockdev", nodeFiles: Self.nodeFiles(events: [30, 31, 32, 33]),
            ["watch-buttons", "--duration", "1.5", "--window", "300"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let presses = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("pressed\t") }
        // event30 is read first (all four have data when reading starts), but the kernel times decide.
        #expect(
            presses == [
                "pressed\t5.400000\tpci-0000:00:14.0-usb-0:3:1.0\tBTN_TRIGGER\t/dev/input/event31",
                "pressed\t5.450000\tplatform-i8042-serio-0\tKEY_A\t/dev/input/event33",
                "pressed\t5.480000\tplatform-button@11\tKEY_2\t/dev/input/event32",
                "pressed\t5.500000\tpci-0000:00:14.0-usb-0:2:1.0\tBTN_TRIGGER_HAPPY6\t/dev/input/event30",
            ], "\(outcome.standardOutput)")
        let attached = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("attached\t") }
        #expect(attached.count == 4, "the power button is not read: \(attached)")
    }

    /// With no buttons to read, watch-buttons says so and what to run, instead of printing nothing at all.
    @Test func watchingWithNoButtonsSaysSo() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "iio-poll-accel.umockdev", ["watch-buttons", "--duration", "0.5"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty, "\(outcome.standardOutput)")
        #expect(
            outcome.standardError
                == "shakyd watch-buttons: no buzzer device found (`shakyd list-devices` says what was seen and why); "
                + "waiting for one to be plugged in\n")
    }

    @Test func theBuzzHandsetsLightIsWrittenInSysfsAndTurnedOffAtTheEnd() async throws {
        let shakyd = try UmockdevHarness.shakyd()
        let led = "/sys/class/leds/0003:054C:0002.0001::buzz2"
        let script =
            "'\(shakyd)' watch-buttons --duration 1 --light && echo \"max=$(cat '\(led)/max_brightness')\" "
            + "&& echo \"after=$(cat '\(led)/brightness')\""
        let outcome = try await UmockdevHarness.run(
            try UmockdevHarness.umockdevRun(),
            ["-d", UmockdevHarness.fixture("buzzers.umockdev")] + Self.nodeFiles(events: [30])
                + ["--", "/bin/sh", "-c", script])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        // Handset 2's buzz button lights handset 2's LED (written through the emulated sysfs), then off.
        #expect(lines.contains("lit\t0003:054C:0002.0001::buzz2"), "\(outcome.standardOutput)")
        #expect(lines.contains("max=1"))
        #expect(lines.last == "after=0")
    }
}

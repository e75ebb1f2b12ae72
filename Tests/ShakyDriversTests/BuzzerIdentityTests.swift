import Foundation
import Testing

@testable import ShakyDrivers

/// Each physical buzzer device is a buzzer of its own, under an identity that stays as long as the hardware allows:
/// the rule (pure), then the real discovery and reader against devices that share udev's identity properties,
/// emulated by umockdev (buzzers-shared-identity.umockdev, see make-buzzer-fixtures.py).
@Suite(.serialized)
struct BuzzerIdentityTests {
    static let adapterPort = "pci-0000:00:14.0-usb-0:4:1.0"
    static let encoderPort = "pci-0000:00:14.0-usb-0:5:1.0"

    static func node(
        _ number: Int, properties: [String: String], product: String? = nil, uniq: String? = nil
    ) -> UdevDevice {
        var properties = properties
        properties["PRODUCT"] = product
        return UdevDevice(
            sysfsPath: "/sys/devices/x/input/input\(number)/event\(number)", sysname: "event\(number)",
            subsystem: "input", devicePath: "/dev/input/event\(number)", name: "Wireless Controller",
            properties: properties, uniq: uniq)
    }

    static func candidate(_ number: Int, _ identity: String, usable: Bool = true) -> BuzzerCandidate {
        BuzzerCandidate(
            devicePath: "/dev/input/event\(number)", name: "pad", identity: identity, kind: usable ? .gamepad : nil,
            keys: [0x130], rejection: usable ? nil : "an accelerometer")
    }

    @Test func aBluetoothDeviceIsKnownByItsAddressNotByTheAdaptersPort() {
        let bluetooth = Self.node(
            40, properties: ["ID_PATH": Self.adapterPort, "ID_BUS": "bluetooth"], uniq: "A4:AE:12:00:00:01")
        #expect(EvdevBuzzerDiscovery.identity(udev: bluetooth, name: "pad", path: "x") == "bluetooth:a4:ae:12:00:00:01")
        // Without udev's ID_BUS, the input device's bus type (PRODUCT's first field, 5) says Bluetooth.
        let byBus = Self.node(41, properties: ["ID_PATH": Self.adapterPort], product: "5/54c/9cc/8100", uniq: "aa")
        #expect(EvdevBuzzerDiscovery.identity(udev: byBus, name: "pad", path: "x") == "bluetooth:aa")
        // A Bluetooth device with no address, and a USB device with a uniq (a serial), keep the port.
        let noAddress = Self.node(42, properties: ["ID_PATH": Self.adapterPort, "ID_BUS": "bluetooth"])
        #expect(EvdevBuzzerDiscovery.identity(udev: noAddress, name: "pad", path: "x") == Self.adapterPort)
        let usb = Self.node(
            43, properties: ["ID_PATH": Self.encoderPort, "ID_BUS": "usb"], product: "3/54c/9cc/8100", uniq: "serial")
        #expect(EvdevBuzzerDiscovery.identity(udev: usb, name: "pad", path: "x") == Self.encoderPort)
    }

    @Test func devicesSharingAnIdentityGetNumbersInNodeOrderAndTheFirstKeepsItsOwn() {
        let candidates = [
            Self.candidate(5, "port"), Self.candidate(6, "port", usable: false), Self.candidate(9, "port"),
            Self.candidate(10, "port"), Self.candidate(11, "other"),
        ]
        #expect(
            EvdevBuzzerDiscovery.distinctIdentities(candidates).map(\.identity) == [
                "port", "port", "port#2", "port#3", "other",
            ])
        // A device plugged in later never takes a present one's identity; one coming back takes the lowest free.
        #expect(EvdevBuzzerDiscovery.distinctIdentity("port", taken: ["other"]) == "port")
        #expect(EvdevBuzzerDiscovery.distinctIdentity("port", taken: ["port", "port#3"]) == "port#2")
        #expect(EvdevBuzzerDiscovery.distinctIdentity("port", taken: ["port", "port#2"]) == "port#3")
        #expect(EvdevBuzzerDiscovery.isInNodeOrder("/dev/input/event9", "/dev/input/event10"))
        #expect(!EvdevBuzzerDiscovery.isInNodeOrder("/dev/input/event10", "/dev/input/event9"))
    }

    /// `-i NODE=IOCTL` for the six devices, and `-e NODE=EVENTS` when `events`.
    static func nodeFiles(events: Bool) -> [String] {
        (40...45).flatMap { node in
            ["-i", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).ioctl"))"]
                + (events
                    ? ["-e", "/dev/input/event\(node)=\(UmockdevHarness.fixture("buzzer-event\(node).events"))"] : [])
        }
    }

    static let identities = [
        40: "bluetooth:a4:ae:12:00:00:01", 41: "bluetooth:a4:ae:12:00:00:02", 42: encoderPort, 43: "\(encoderPort)#2",
        44: "name:Shaky Foot Switch", 45: "name:Shaky Foot Switch#2",
    ]

    @Test func devicesSharingUdevsIdentityAreListedAsDistinctBuzzers() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "buzzers-shared-identity.umockdev", nodeFiles: Self.nodeFiles(events: false), ["list-devices"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        for (node, identity) in Self.identities {
            let line = lines.first { $0.hasPrefix("  /dev/input/event\(node)\t") } ?? ""
            #expect(line.contains("\tid \(identity)\t"), "\(outcome.standardOutput)")
        }
        #expect(lines.contains("Buzzer devices usable: 6"), "\(outcome.standardOutput)")
    }

    @Test func pressesOnDevicesSharingUdevsIdentityCarryDistinctButtons() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "buzzers-shared-identity.umockdev", nodeFiles: Self.nodeFiles(events: true),
            ["watch-buttons", "--duration", "2", "--window", "300"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let attached = lines.filter { $0.hasPrefix("attached\t") }
        let kinds = [40: "gamepad", 41: "gamepad", 42: "arcade", 43: "arcade", 44: "buttons", 45: "buttons"]
        let expected = (40...45).map { node in
            "attached\t/dev/input/event\(node)\t\(Self.identities[node] ?? "")\t\(kinds[node] ?? "")"
        }
        #expect(attached == expected, "\(outcome.standardOutput)")
        let presses = lines.filter { $0.hasPrefix("pressed\t") }
        #expect(
            presses == [
                "pressed\t6.100000\tbluetooth:a4:ae:12:00:00:01\tBTN_SOUTH\t/dev/input/event40",
                "pressed\t6.200000\tbluetooth:a4:ae:12:00:00:02\tBTN_SOUTH\t/dev/input/event41",
                "pressed\t6.300000\t\(Self.encoderPort)\tBTN_TRIGGER\t/dev/input/event42",
                "pressed\t6.400000\t\(Self.encoderPort)#2\tBTN_TRIGGER\t/dev/input/event43",
                "pressed\t6.500000\tname:Shaky Foot Switch\tKEY_ENTER\t/dev/input/event44",
                "pressed\t6.600000\tname:Shaky Foot Switch#2\tKEY_ENTER\t/dev/input/event45",
            ], "\(outcome.standardOutput)")
    }

    /// Two players' inputs of one encoder plugged in one after the other, one unplugged and plugged in again, with
    /// uevents sent by a umockdev testbed (Fixtures/buzzer-identity-hotplug.py).
    @Test func aDevicePluggedInLaterNeverTakesAPresentOnesIdentityAndOneComingBackGetsItsOwn() async throws {
        let outcome = try await UmockdevHarness.runTestbedScript(
            "buzzer-identity-hotplug.py", [try UmockdevHarness.shakyd(), UmockdevHarness.fixtures.path])
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let port = Self.encoderPort
        #expect(
            lines == [
                "attached\t/dev/input/event42\t\(port)\tarcade",
                "attached\t/dev/input/event43\t\(port)#2\tarcade",
                "gone\t/dev/input/event42\t\(port)",
                "back\t/dev/input/event46\t\(port)",
                "pressed\t8.100000\t\(port)#2\tBTN_TRIGGER\t/dev/input/event43",
                "pressed\t8.200000\t\(port)\tBTN_TRIGGER\t/dev/input/event46",
                "exit=0",
            ], "\(outcome.standardOutput)\n\(outcome.standardError)")
    }
}

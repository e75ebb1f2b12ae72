import Foundation
import ShakeDetection
import ShakyCore
import ShakyDrivers
import Testing

/// The accelerometers people own, each emulated from its Linux 6.1 driver (`Fixtures/devices/make-devices.py`
/// writes the fixtures and names the driver files), read by `shakyd record --input auto` through the real
/// libiio/libevdev paths: found, by the right driver, gravity on the right axis in two orientations, at the
/// right rate, a firm shake detected once and a gentle one detected with `medium`.
@Suite(.tags(.deviceMatrix)) struct UmockdevDeviceMatrixTests {
    /// An axis of the reported frame and its sign.
    enum Axis: String, Sendable {
        case x = "+x", y = "+y", z = "+z", minusX = "-x", minusY = "-y", minusZ = "-z"

        func component(of sample: AccelSample) -> Double {
            switch self {
            case .x: sample.x
            case .y: sample.y
            case .z: sample.z
            case .minusX: -sample.x
            case .minusY: -sample.y
            case .minusZ: -sample.z
            }
        }
    }

    /// How the emulated device delivers its motion.
    enum Feed: Sendable {
        /// Raw scans into `/dev/iio:device0` (`NAME.script`).
        case buffer
        /// Raw attribute values written while shakyd polls (`NAME.poll`), into this sysfs directory, once its
        /// log contains `ready` (it is polling).
        case attributes(sysfs: String, ready: String = "recording from")
        /// Kernel events on this node (`NAME.ioctl`, `NAME.events`, played by `events-feeder.py` once shakyd opens it).
        case events(node: String)
    }

    struct Device: Sendable, CustomTestStringConvertible {
        var fixture: String
        var feed: Feed
        var driver: String
        var name: String
        /// Gravity in the two rest orientations.
        var gravity: (a: Axis, b: Axis)
        /// The `rate` metadata shakyd records (IIO), or `nil` (evdev: the device's own pace).
        var recordedRate: String?
        /// Samples per second that arrive.
        var sampleRate: Double

        var testDescription: String { fixture }

        var isPolled: Bool {
            if case .attributes = feed { return true }
            return false
        }
    }

    static var bufferedIIO: [Device] { devices.filter { $0.driver == "iio-buffer" && !$0.isPolled } }
    static var polledIIO: [Device] { devices.filter(\.isPolled) }
    static var evdev: [Device] { devices.filter { $0.driver == "evdev" } }

    static let devices: [Device] = [
        Device(
            fixture: "mpu6050", feed: .buffer, driver: "iio-buffer", name: "mpu6050", gravity: (.z, .x),
            recordedRate: "100", sampleRate: 100),
        // The INT pin is not wired: the buffer is enabled, stays silent, and shakyd polls instead.
        Device(
            fixture: "mpu6050-unwired", feed: .attributes(sysfs: i2c(0x68), ready: "polling instead"),
            driver: "iio-buffer",
            name: "mpu6050", gravity: (.z, .x), recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "adxl345-iio", feed: .attributes(sysfs: i2c(0x53)), driver: "iio-poll", name: "adxl345",
            gravity: (.z, .y), recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "sensehat", feed: .attributes(sysfs: i2c(0x6a)), driver: "iio-poll", name: "lsm9ds1-imu_accel",
            gravity: (.z, .minusX), recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "lis3dh", feed: .buffer, driver: "iio-buffer", name: "lis3dh", gravity: (.z, .y),
            recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "lis3dh-untriggered", feed: .buffer, driver: "iio-buffer", name: "lis3dh", gravity: (.z, .y),
            recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "mma8452", feed: .buffer, driver: "iio-buffer", name: "mma8452", gravity: (.z, .minusY),
            recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "bmc150", feed: .buffer, driver: "iio-buffer", name: "bma250e", gravity: (.x, .z),
            recordedRate: "125", sampleRate: 125),
        Device(
            fixture: "kxcj9", feed: .buffer, driver: "iio-buffer", name: "kxcj91008", gravity: (.z, .x),
            recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "hid-sensor-hub", feed: .buffer, driver: "iio-buffer", name: "accel_3d", gravity: (.z, .minusY),
            recordedRate: "100", sampleRate: 100),
        Device(
            fixture: "dualsense", feed: .events(node: "/dev/input/event30"), driver: "evdev",
            name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", gravity: (.y, .z),
            recordedRate: nil, sampleRate: 125),
        Device(
            fixture: "dualshock4", feed: .events(node: "/dev/input/event31"), driver: "evdev",
            name: "Sony Interactive Entertainment Wireless Controller Motion Sensors", gravity: (.y, .minusX),
            recordedRate: nil, sampleRate: 125),
        Device(
            fixture: "switch-pro", feed: .events(node: "/dev/input/event32"), driver: "evdev",
            name: "Nintendo Switch Pro Controller (IMU)", gravity: (.z, .x), recordedRate: nil, sampleRate: 200),
        Device(
            fixture: "wiimote", feed: .events(node: "/dev/input/event33"), driver: "evdev",
            name: "Nintendo Wii Remote Accelerometer", gravity: (.z, .y), recordedRate: nil, sampleRate: 100),
        Device(
            fixture: "lis3lv02d", feed: .events(node: "/dev/input/event34"), driver: "evdev",
            name: "ST LIS3LV02DL Accelerometer", gravity: (.z, .x), recordedRate: nil, sampleRate: 50),
        Device(
            fixture: "adxl345-input", feed: .events(node: "/dev/input/event36"), driver: "evdev",
            name: "ADXL345 accelerometer", gravity: (.z, .minusY), recordedRate: nil, sampleRate: 100),
    ]

    static func i2c(_ address: Int) -> String {
        "/sys/devices/platform/soc/fe804000.i2c/i2c-1/1-00\(String(address, radix: 16))/iio:device0"
    }

    /// The segments of the motion, in seconds from its start (as in make-devices.py).
    enum Motion {
        static let restA = 0.0..<0.25
        static let restB = 0.25..<0.5
        static let firm = 1.0..<2.0
        static let gentle = 2.5..<3.5
        static let length = 3.6
    }

    /// How long a recording may last at most; each ends once the whole motion was read (see `record`).
    static let recordingLimit = 30.0
    /// How long a recording goes on after the last of the motion was delivered.
    static let hold = 0.3

    /// Records the device's motion with `shakyd record --input auto`. The motion starts once shakyd says it is
    /// recording (or, for a buffer found silent, polling), and the recording ends a moment after the last of it was
    /// delivered and read — no duration guessed for a machine that may be slow.
    static func record(
        _ device: Device
    ) async throws -> (
        samples: [AccelSample], metadata: TraceMetadata, log: String
    ) {
        let fixture = { (suffix: String) in UmockdevHarness.fixture("devices/\(device.fixture).\(suffix)") }
        switch device.feed {
        case .buffer:
            return try await UmockdevHarness.record(
                device: "devices/\(device.fixture).umockdev", node: "/dev/iio:device0", ioctl: "-",
                events: fixture("script"), duration: recordingLimit, stopAfter: hold)
        case .events(let node):
            return try await UmockdevHarness.record(
                device: "devices/\(device.fixture).umockdev", node: node, ioctl: fixture("ioctl"),
                events: fixture("events"), duration: recordingLimit, stopAfter: hold)
        case .attributes(let sysfs, let ready):
            return try await UmockdevHarness.record(
                device: "devices/\(device.fixture).umockdev",
                wrapper: [
                    "/usr/bin/python3", UmockdevHarness.fixture("devices/poll-writer.py"), fixture("poll"), sysfs,
                    ready, "--stop-after", "\(hold)", "--",
                ],
                duration: recordingLimit)
        }
    }

    /// Where the motion starts in the samples' clock: reckoned back from where gravity first stops lying along
    /// orientation B (a reader that started late, as a polled one may under load, still sees how B ends).
    static func motionStart(_ samples: [AccelSample], _ device: Device) -> Double? {
        let g = AccelSample.standardGravity
        let isB = { (sample: AccelSample) in device.gravity.b.component(of: sample) > 0.7 * g }
        guard let first = samples.firstIndex(where: isB) else { return nil }
        let last = samples[first...].prefix(while: isB).last ?? samples[first]
        return last.timestamp + 1 / device.sampleRate - Motion.restB.upperBound
    }

    // Three streams side by side, each device after the other: emulated nodes fed by umockdev lose data when
    // too many readers compete for two cores.
    @Test(.serialized, arguments: bufferedIIO)
    func bufferedIIODevice(_ device: Device) async throws {
        try await Self.check(device)
    }

    @Test(.serialized, arguments: polledIIO)
    func polledIIODevice(_ device: Device) async throws {
        try await Self.check(device)
    }

    @Test(.serialized, arguments: evdev)
    func evdevDevice(_ device: Device) async throws {
        try await Self.check(device)
    }

    /// A reader the machine stalls for a second, far longer than umockdev's pseudo-terminal can hold (4095 bytes,
    /// a third of a second of DualSense reports), still gets every report whole and in order, as from a kernel's
    /// evdev node, rather than a partial event that libevdev refuses.
    @Test func aStalledEvdevReaderStillGetsEveryReportWhole() async throws {
        let device = try #require(Self.devices.first { $0.fixture == "dualsense" })
        let events = UmockdevHarness.fixture("devices/dualsense.events")
        let reports = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("E: ") && $0.hasSuffix(" 0000 0000 0") }.count
        let (samples, _, log) = try await UmockdevHarness.record(
            device: "devices/dualsense.umockdev", node: "/dev/input/event30",
            ioctl: UmockdevHarness.fixture("devices/dualsense.ioctl"), events: events,
            duration: Self.recordingLimit, stall: (at: 1.5, for: 1.0), stopAfter: Self.hold)
        #expect(samples.count == reports, "every report arrives: \(log)")
        let intervals = zip(samples.dropFirst(), samples).map { $0.timestamp - $1.timestamp }
        #expect(
            intervals.allSatisfy { abs($0 * device.sampleRate - 1) < 0.15 },
            "no report lost or split: \(intervals.filter { abs($0 * device.sampleRate - 1) >= 0.15 })")
    }

    /// Found by `--input auto` with the right driver, gravity along the right axes at rest, samples at the right
    /// pace, one firm shake, and the gentle shake detected with `medium`.
    static func check(_ device: Device) async throws {
        let (samples, metadata, log) = try await record(device)
        let g = AccelSample.standardGravity
        #expect(metadata["driver"] == device.driver, "\(log)")
        #expect(metadata["device"]?.hasPrefix(device.name + " (") == true, "\(metadata["device"] ?? "-")")
        #expect(metadata["frame"] != nil, "the frame is stated")
        #expect(metadata["rate"] == device.recordedRate)

        guard let start = motionStart(samples, device) else {
            Issue.record("gravity never lay along \(device.gravity.b.rawValue): \(samples.prefix(5)) \(log)")
            return
        }
        func segment(_ range: Range<Double>, trimmed: Double = 0) -> [AccelSample] {
            samples.filter {
                ($0.timestamp - start) >= range.lowerBound + trimmed
                    && ($0.timestamp - start) < range.upperBound - trimmed
            }
        }
        // Polled values change whenever the writer gets to them: leave room at the edges.
        let edge = device.isPolled ? 0.08 : 0.03
        for (range, axis) in [(Motion.restA, device.gravity.a), (Motion.restB, device.gravity.b)] {
            let rest = segment(range, trimmed: edge)
            #expect(rest.count >= 5, "samples at rest along \(axis.rawValue)")
            for sample in rest {
                let along = axis.component(of: sample)
                let across = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z - along * along)
                    .squareRoot()
                #expect(
                    abs(along - g) < 0.03 * g && across < 0.03 * g,
                    "at rest gravity lies along \(axis.rawValue): \(sample)")
            }
        }
        // The pace samples arrive at: the median interval during the firm shake.
        let intervals = zip(segment(Motion.firm).dropFirst(), segment(Motion.firm)).map { $0.timestamp - $1.timestamp }
            .sorted()
        if !intervals.isEmpty {
            let median = intervals[intervals.count / 2]
            #expect(
                abs(median * device.sampleRate - 1) < 0.15, "median interval \(median) s at \(device.sampleRate) Hz")
        }

        var detector = ShakeDetector(sensitivity: .medium)
        let shakes = samples.compactMap { detector.process($0) }.map { $0.timestamp - start }
        #expect(!shakes.contains { $0 < Motion.firm.lowerBound }, "nothing at rest: \(shakes)")
        let firm = shakes.filter { $0 >= Motion.firm.lowerBound && $0 < Motion.firm.upperBound + 0.5 }
        #expect(firm.count == 1, "one firm shake: \(shakes)")
        let gentle = shakes.filter { $0 >= Motion.gentle.lowerBound && $0 < Motion.gentle.upperBound + 0.5 }
        #expect(!gentle.isEmpty, "the gentle shake is detected with medium: \(shakes)")
    }
}

/// What `shakyd list-devices` says about the emulated devices: how a usable one will be read, and what a refused
/// one needs.
@Suite struct ListDevicesTests {
    /// `shakyd list-devices ARGUMENTS` on the emulated `fixture`: its evdev `node` answering the fixture's ioctls,
    /// or its buffer playing the fixture's scans when it has them.
    /// With no `configuration`, an empty configuration file, so that the machine's own /etc/shaky/shakyd.conf plays
    /// no part.
    static func listDevices(
        _ fixture: String, node: String? = nil, configuration: String = "", _ arguments: [String] = []
    ) async throws -> String {
        var nodeFiles: [String] = []
        if let node {
            nodeFiles = ["-i", "\(node)=\(UmockdevHarness.fixture("devices/\(fixture).ioctl"))"]
        }
        let script = UmockdevHarness.fixture("devices/\(fixture).script")
        if FileManager.default.fileExists(atPath: script) { nodeFiles += ["-s", "/dev/iio:device0=\(script)"] }
        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("shakyd.conf").path
        try configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try await UmockdevHarness.runShakyd(
            device: "devices/\(fixture).umockdev", nodeFiles: nodeFiles,
            ["list-devices", "--config", config] + arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return outcome.standardOutput
    }

    @Test func aHIDSensorHubIsAskedForTheRateDetectionNeeds() async throws {
        let output = try await Self.listDevices("hid-sensor-hub")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  iio-buffer\t/dev/iio:device0\taccel_3d\tusable"), "\(output)")
        #expect(lines.contains("    rate: 100 Hz"), "written over the hub's 12.5 Hz: \(output)")
        #expect(lines.contains("    frame: \(KnownAccelerometers.deviceFrame)"), "\(output)")
        #expect(!output.contains("note:"), "100 Hz needs no warning")
    }

    @Test func aTabletsInMountMatrixIsShown() async throws {
        let output = try await Self.listDevices("bmc150")
        #expect(output.contains("    mount matrix: 0, -1, 0; 1, 0, 0; 0, 0, 1"), "\(output)")
        #expect(output.contains("    rate: 125 Hz"), "\(output)")
    }

    @Test func theWiiRemoteIsUsableThoughUdevCallsItAJoystick() async throws {
        let output = try await Self.listDevices("wiimote", node: "/dev/input/event33")
        #expect(
            output.hasSuffix("Would use: evdev /dev/input/event33 (Nintendo Wii Remote Accelerometer)\n"), "\(output)")
        #expect(output.contains("    frame: Wii Remote:"), "\(output)")
        // The buzzer section lists every input node; among the accelerometers its other nodes are no candidates.
        let accelerometers = output.components(separatedBy: "Accelerometers for").last ?? output
        #expect(!accelerometers.contains("Nintendo Wii Remote IR"), "its other nodes are not candidates")
    }

    @Test func anUnknownDeviceIsRefusedWithTheEntryThatWouldDescribeIt() async throws {
        let output = try await Self.listDevices("acme-tilt", node: "/dev/input/event37")
        #expect(
            output.contains(
                "rejected: /dev/input/event37: ABS_X/ABS_Y/ABS_Z report no resolution, so the units per g are unknown"),
            "\(output)")
        let advice = """
                to read it, add to /etc/shaky/shakyd.conf:
                  accelerometers:
                    - name: "Acme Tilt Sensor"
                      units-per-g: N
                or a udev rule: SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Acme Tilt Sensor", \
            ENV{SHAKY_ACCEL_UNITS_PER_G}="N"
                N is its reading along gravity at rest; it reads 256 now (that is N if it lies still)

            """
        #expect(output.contains(advice), "the entry, the rule and the reading at rest: \(output)")
        #expect(output.hasSuffix("Would use: nothing; `--input trace:FILE` replays a recorded trace instead\n"))
    }

    /// The entry list-devices suggests, put into the configuration file, makes the refused device usable, and it is
    /// then read right.
    @Test func theSuggestedEntryMakesTheUnknownDeviceUsable() async throws {
        let entry = """
            accelerometers:
              - name: "Acme Tilt Sensor"
                units-per-g: 256
                frame: "tilt board: +z up"
            """
        let output = try await Self.listDevices("acme-tilt", node: "/dev/input/event37", configuration: entry)
        #expect(
            output.contains("  evdev\t/dev/input/event37\tAcme Tilt Sensor\tusable\n    frame: tilt board: +z up"),
            "\(output)")
        #expect(output.hasSuffix("Would use: evdev /dev/input/event37 (Acme Tilt Sensor)\n"), "\(output)")

        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("shakyd.conf").path
        try entry.write(toFile: config, atomically: true, encoding: .utf8)
        let (samples, metadata, log) = try await UmockdevHarness.record(
            device: "devices/acme-tilt.umockdev", node: "/dev/input/event37",
            ioctl: UmockdevHarness.fixture("devices/acme-tilt.ioctl"),
            events: UmockdevHarness.fixture("devices/acme-tilt.events"), duration: 1.5, options: ["--config", config])
        #expect(metadata["driver"] == "evdev", "\(log)")
        let atRest = try #require(samples.first, "\(log)")
        #expect(abs(atRest.z - AccelSample.standardGravity) < 0.03 * AccelSample.standardGravity, "\(atRest)")
    }

    @Test func theUDrawIsRefusedWithItsDriversFault() async throws {
        let output = try await Self.listDevices("udraw", node: "/dev/input/event35")
        #expect(
            output.contains(
                "rejected: /dev/input/event35: its kernel driver (hid-udraw-ps3) scales every accelerometer reading "
                    + "to 0"), "\(output)")
    }

    /// A GY-521 whose INT pin is not wired: its buffer never fills, so list-devices says it will be polled and
    /// would use the polled driver, as the daemon does once its watchdog fires.
    @Test func aBufferThatNeverDeliversIsListedAsPolled() async throws {
        let output = try await Self.listDevices("mpu6050-unwired")
        #expect(
            output.contains(
                "  iio-buffer\t/dev/iio:device0\tmpu6050\trejected: /dev/iio:device0 delivered no sample within 1.0 s "
                    + "of enabling its buffer (is its interrupt line wired?); shakyd reads it by polling instead"),
            "\(output)")
        #expect(output.hasSuffix("Would use: iio-poll /dev/iio:device0 (mpu6050)\n"), "\(output)")
        let unprobed = try await Self.listDevices("mpu6050-unwired", ["--no-probe"])
        #expect(unprobed.hasSuffix("Would use: iio-buffer /dev/iio:device0 (mpu6050)\n"), "\(unprobed)")
    }

    @Test func aBufferThatDeliversIsListedAsBuffered() async throws {
        let output = try await Self.listDevices("mpu6050")
        #expect(output.hasSuffix("Would use: iio-buffer /dev/iio:device0 (mpu6050)\n"), "\(output)")
    }
}

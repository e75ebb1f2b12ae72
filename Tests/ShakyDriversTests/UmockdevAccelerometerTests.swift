import Foundation
import ShakyCore
import ShakyDrivers
import ShakyTesting
import Testing

/// The real IIO and evdev code paths (libiio, libevdev, libudev) against devices emulated by umockdev.
@Suite(.serialized)
struct UmockdevAccelerometerTests {
    @Test func polledIIODeviceIsScaledOffsetAndRotated() async throws {
        let (samples, metadata, _) = try await UmockdevHarness.record(
            device: "iio-poll-accel.umockdev", input: "iio:shaky-poll-accel", rate: 20, duration: 0.8)
        // raw (100, -200, 512), offset 10, scale 0.01 → chip (1.1, -1.9, 5.22);
        // in_accel_mount_matrix "0, 1, 0; -1, 0, 0; 0, 0, 1" → device (-1.9, -1.1, 5.22).
        #expect(samples.count >= 3, "expected several polled samples in 0.8 s at 20 Hz, got \(samples.count)")
        for sample in samples {
            #expect(abs(sample.x - -1.9) < 1e-9 && abs(sample.y - -1.1) < 1e-9 && abs(sample.z - 5.22) < 1e-9)
        }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(metadata["driver"] == "iio-poll")
        #expect(metadata["device"] == "shaky-poll-accel (/dev/iio:device0)")
        #expect(metadata["rate"] == "20")
        #expect(metadata["mount"] == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    }

    @Test func bufferedIIOShakeArrivesScanByScan() async throws {
        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A shake along x: rest, three ±900 strokes each way, rest; one scan per 20 ms from t = 1 s.
        typealias Raw = (x: Int16, y: Int16, z: Int16)
        let rest: [Raw] = Array(repeating: (0, 0, 512), count: 3)
        let strokes: [Raw] = [(900, 100, 512), (-900, -100, 512)]
        let raw: [Raw] = rest + strokes.repeated(3) + rest
        let scans = raw.enumerated().map { index, value in
            BufferScan(x: value.x, y: value.y, z: value.z, nanoseconds: 1_000_000_000 + Int64(index) * 20_000_000)
        }
        let script = directory.appendingPathComponent("shake.script")
        try BufferScan.umockdevScript(node: "/dev/iio:device0", scans: scans, headStartMilliseconds: 800).write(
            to: script)

        let (samples, metadata, _) = try await UmockdevHarness.record(
            device: "iio-buffer-accel.umockdev", nodeFiles: ["-s", "/dev/iio:device0=\(script.path)"],
            input: "auto", rate: 60, duration: 2.5)

        // Scale 0.019153, offset 2; y is be:s12/16>>4; ACCEL_MOUNT_MATRIX "-1, 0, 0; 0, 1, 0; 0, 0, -1".
        let scale = 0.019153
        let expected = scans.map { scan in
            AccelSample(
                timestamp: Double(scan.nanoseconds) / 1e9, x: -(Double(scan.x) + 2) * scale,
                y: (Double(scan.y) + 2) * scale, z: -(Double(scan.z) + 2) * scale)
        }
        #expect(samples.count == expected.count, "got \(samples)")
        for (actual, wanted) in zip(samples, expected) { expectClose(actual, wanted) }
        // Here a ShakeDetector (module ShakeDetection) would take `samples` and report one shake.
        #expect(metadata["driver"] == "iio-buffer")
        #expect(metadata["rate"] == "50", "the nearest offered frequency to 60 Hz is 50 Hz")
    }

    /// A buffered device stamping with the wall clock (the kernel's default `current_timestamp_clock`): shakyd sets
    /// it to `monotonic` before it enables the buffer, so the kernel's stamps are taken as they are.
    @Test func bufferedIIODeviceIsSwitchedToMonotonicTimestamps() async throws {
        let directory = try UmockdevHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let description = try String(
            contentsOfFile: UmockdevHarness.fixture("iio-buffer-accel.umockdev"), encoding: .utf8
        )
        .replacingOccurrences(
            of: "A: name=shaky-buffer-accel\\n\n",
            with: "A: name=shaky-buffer-accel\\n\nA: current_timestamp_clock=realtime\\n\n")
        #expect(description.contains("current_timestamp_clock=realtime"))
        let device = directory.appendingPathComponent("realtime-clock.umockdev")
        try description.write(to: device, atomically: true, encoding: .utf8)
        let scans = (0..<8).map { index in
            BufferScan(x: 0, y: 0, z: 512, nanoseconds: 1_000_000_000 + Int64(index) * 20_000_000)
        }
        let script = directory.appendingPathComponent("rest.script")
        try BufferScan.umockdevScript(node: "/dev/iio:device0", scans: scans, headStartMilliseconds: 800).write(
            to: script)
        let recording = directory.appendingPathComponent("recording.csv").path
        let attribute = "/sys/bus/iio/devices/iio:device0/current_timestamp_clock"
        let command =
            "'\(try UmockdevHarness.shakyd())' record --input auto --rate 60 --output '\(recording)' --duration 2 "
            + "&& echo \"clock=$(cat '\(attribute)')\""
        let outcome = try await UmockdevHarness.run(
            try UmockdevHarness.umockdevRun(),
            ["-d", device.path, "-s", "/dev/iio:device0=\(script.path)", "--", "/bin/sh", "-c", command])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("clock=monotonic"), "\(outcome.standardOutput)")
        let samples = try TraceReader(path: recording).readAll()
        #expect(samples.map(\.timestamp) == scans.map { Double($0.nanoseconds) / 1e9 }, "\(samples)")
    }

    @Test func bufferWithoutTriggerFallsBackToPolling() async throws {
        let outcome = try await UmockdevHarness.runShakyd(device: "iio-buffer-no-trigger.umockdev", ["list-devices"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("  iio-buffer\t/dev/iio:device0") && $0.contains("needs a trigger") },
            "\(outcome.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  iio-poll\t/dev/iio:device0") && $0.hasSuffix("usable") })
        #expect(lines.last == "Would use: iio-poll /dev/iio:device0 (shaky-buffer-accel)")
    }

    /// Without waiting for a first sample (`--no-probe`: this emulated buffer is fed nothing), a buffer with a
    /// trigger is preferred.
    @Test func listDevicesPrefersTheBufferWhenItHasATrigger() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "iio-buffer-accel.umockdev", ["list-devices", "--no-probe"])
        #expect(outcome.status == 0)
        #expect(
            outcome.standardOutput.hasSuffix("Would use: iio-buffer /dev/iio:device0 (shaky-buffer-accel)\n"),
            "\(outcome.standardOutput)")
    }

    @Test func evdevReportsAreConvertedRotatedAndResynchronised() async throws {
        let node = "/dev/input/event21"
        let (samples, metadata, _) = try await UmockdevHarness.record(
            device: "input-accel.umockdev", node: node, ioctl: UmockdevHarness.fixture("input-accel.ioctl"),
            events: UmockdevHarness.fixture("input-accel-shake.events"), input: "evdev", duration: 2.2)
        // Resolution 256 units/g on x and y, 512 on z; ACCEL_MOUNT_MATRIX "0, -1, 0; 1, 0, 0; 0, 0, 1"
        // gives device (x, y, z) = (-chip y, chip x, chip z).
        let g = AccelSample.standardGravity
        let expected = [
            AccelSample(timestamp: 1.10, x: 0, y: 0, z: g),
            AccelSample(timestamp: 1.14, x: 0, y: 2 * g, z: g),
            AccelSample(timestamp: 1.18, x: 0, y: -2 * g, z: g),
            // SYN_DROPPED at 1.22: the state is re-read from the device (x back to 0).
            AccelSample(timestamp: 1.22, x: 0, y: 0, z: g),
            AccelSample(timestamp: 1.72, x: -0.5 * g, y: 0, z: g),
        ]
        #expect(samples.count == expected.count, "got \(samples)")
        for (actual, wanted) in zip(samples, expected) { expectClose(actual, wanted) }
        #expect(metadata["driver"] == "evdev")
        #expect(metadata["device"] == "Shaky Evdev Accelerometer (/dev/input/event21)")
    }

    @Test func scriptsEscapeOnlyBytesBelowASpace() {
        #expect(
            UmockdevScript.escape([0x00, 0x1F, 0x20, 0x21, 0x5E, 0xFF]) == [
                0x5E, 0x40, 0x5E, 0x5F, 0x20, 0x21, 0x5E, 0x60, 0xFF,
            ])
        let script = UmockdevScript.encode(node: "/dev/x", chunks: [(5, [0x41]), (20, [0x20, 0x42])])
        #expect(
            String(decoding: script, as: UTF8.self) == "d 0 /dev/x\nr 5 A B\n", "a leading space joins the line before")
    }

    @Test func unknownDeviceNameIsAClearError() async throws {
        let outcome = try await UmockdevHarness.runShakyd(
            device: "iio-poll-accel.umockdev", ["record", "--input", "iio:nonesuch", "--output", "/dev/null"])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("no accelerometer found for --input iio:nonesuch"))
    }
}

/// One scan of the emulated buffer: x le:s16, y be:s12/16>>4, z le:s16, 2 bytes padding, timestamp le:s64.
struct BufferScan {
    var x: Int16
    var y: Int16
    var z: Int16
    var nanoseconds: Int64

    /// The 16 bytes the kernel would put in the buffer.
    var bytes: [UInt8] {
        func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let yWord = UInt16(bitPattern: y << 4)
        return little(x) + [UInt8(yWord >> 8), UInt8(yWord & 0xff)] + little(z) + [0, 0] + little(nanoseconds)
    }

    /// An umockdev read script: each scan written to `node` 20 ms after the previous, the first after a head start.
    static func umockdevScript(node: String, scans: [BufferScan], headStartMilliseconds: Int) -> Data {
        UmockdevScript.encode(
            node: node,
            chunks: scans.enumerated().map { index, scan in
                (index == 0 ? headStartMilliseconds : 20, scan.bytes)
            })
    }
}

extension Array {
    /// The array's elements `count` times over.
    fileprivate func repeated(_ count: Int) -> [Element] {
        (0..<count).flatMap { _ in self }
    }
}

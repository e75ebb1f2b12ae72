import Foundation
import ShakyCore
import ShakyDrivers
import ShakyTesting
import Testing

/// Runs the built `shakyd` inside umockdev's emulated /sys and /dev, the way the real libiio and libevdev see them.
///
/// The preload library only reaches the process umockdev starts, so each test runs `shakyd` as a subprocess
/// (`umockdev-run -d DEVICE [-s/-i/-e NODE=FILE] -- shakyd …`) and reads back what it recorded.
enum UmockdevHarness {
    /// Where the fixtures (device descriptions, ioctl answers, event files) are.
    static let fixtures: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// The path of one fixture.
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The built `shakyd` beside the test bundle; a test fails with what to do when it is missing.
    static func shakyd() throws -> String {
        try BuiltProduct.path("shakyd")
    }

    /// `umockdev-run`, or a failure saying how to install it.
    static func umockdevRun() throws -> String {
        try tool("umockdev-run", installHint: "install umockdev (make setup)")
    }

    /// Finds `name` on PATH or in /usr/bin.
    static func tool(_ name: String, installHint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw HarnessError("\(name) is not installed: \(installHint)")
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shaky-drivers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// What a finished subprocess left behind.
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `executable arguments` and waits up to `timeout` seconds without blocking a thread; a timeout
    /// is a failure.
    /// Debian's Python interpreter: the only one that loads python3-gi, which a testbed script needs.
    static let python = "/usr/bin/python3"

    /// Runs the testbed script `name` of the fixtures with `arguments` after it, under Debian's Python.
    static func runTestbedScript(_ name: String, _ arguments: [String], timeout: Double = 90) async throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("\(python) is missing: install python3-gi and gir1.2-umockdev-1.0 (make setup)")
        }
        return try await run(python, [fixture(name)] + arguments, timeout: timeout)
    }

    static func run(_ executable: String, _ arguments: [String], timeout: Double = 60) async throws -> Outcome {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // umockdev-run makes its testbed in TMPDIR and now and then leaves it behind when tests run side by side:
        // inside this folder, it goes with it.
        let child = try ChildProcess(
            executable, arguments, environment: ["TMPDIR": directory.path], currentDirectory: directory)
        do {
            let exit = try await child.waitForExit(within: .milliseconds(Int64(timeout * 1000)))
            return Outcome(
                status: exit.status, standardOutput: child.standardOutput, standardError: child.standardError)
        } catch {
            throw HarnessError(
                "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s; "
                    + "stderr: \(child.standardError)")
        }
    }

    /// Runs `shakyd ARGUMENTS` under `umockdev-run` with the given device description and node files; a
    /// `wrapper` command (which runs what follows it) goes between umockdev-run and shakyd.
    static func runShakyd(
        device: String, nodeFiles: [String] = [], wrapper: [String] = [], _ arguments: [String], timeout: Double = 60
    ) async throws -> Outcome {
        let shakyd = try shakyd()
        return try await run(
            try umockdevRun(), ["-d", fixture(device)] + nodeFiles + ["--"] + wrapper + [shakyd] + arguments,
            timeout: timeout)
    }

    /// Records `duration` seconds from `input` under umockdev and returns the trace read back.
    static func record(
        device: String, nodeFiles: [String] = [], wrapper: [String] = [], input: String = "auto", rate: Double = 100,
        duration: Double
    ) async throws -> (samples: [AccelSample], metadata: TraceMetadata, log: String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("recording.csv").path
        let outcome = try await runShakyd(
            device: device, nodeFiles: nodeFiles, wrapper: wrapper,
            ["record", "--input", input, "--rate", "\(rate)", "--output", output, "--duration", "\(duration)"])
        guard outcome.status == 0 else {
            throw HarnessError("shakyd record exited with \(outcome.status): \(outcome.standardError)")
        }
        let reader = try TraceReader(path: output)
        return (try reader.readAll(), reader.metadata, outcome.standardError)
    }
}

extension UmockdevHarness {
    /// Records `duration` seconds from the emulated input `node` (answering `ioctl`) with `--input auto`, the
    /// `events` starting once shakyd is about to open the node (`devices/events-feeder.py`): a kernel delivers
    /// only what happens after the open, whereas umockdev's node would queue events for a late reader and, past
    /// its 4 KiB buffer, hand out a partial one. The feeder writes whole reports and holds them back while the
    /// reader is behind, as a kernel keeps its queued events whole. `stall` stops shakyd `at` seconds after the
    /// events start for `for` seconds, as a busy machine may. With `stopAfter`, the recording ends that many seconds
    /// after shakyd has read the last event (SIGINT), `duration` being only an upper bound: however slow the
    /// machine, the recording holds all of the motion. `node` may be an IIO buffer's node and `events` a umockdev
    /// script of its scans (with `ioctl` "-"), fed whole scans at a time the same way.
    static func record(
        device: String, node: String, ioctl: String, events: String, input: String = "auto", duration: Double,
        stall: (at: Double, for: Double)? = nil, stopAfter: Double? = nil, options: [String] = []
    ) async throws -> (samples: [AccelSample], metadata: TraceMetadata, log: String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("recording.csv").path
        let outcome = try await run(
            "/usr/bin/python3",  // Debian's interpreter: the only one that loads python3-gi
            [
                fixture("devices/events-feeder.py"), fixture(device), node, ioctl, events, "recording from",
            ] + (stall.map { ["--stall", "\($0.at)", "\($0.for)"] } ?? [])
                + (stopAfter.map { ["--stop-after", "\($0)"] } ?? []) + [
                    "--", try shakyd(), "record", "--input", input, "--rate", "100", "--output", output, "--duration",
                    "\(duration)",
                ] + options)
        guard outcome.status == 0 else {
            throw HarnessError("shakyd record exited with \(outcome.status): \(outcome.standardError)")
        }
        let reader = try TraceReader(path: output)
        return (try reader.readAll(), reader.metadata, outcome.standardError)
    }
}

/// A test environment problem, with what to do about it.
struct HarnessError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Expects two samples to agree to within `tolerance` m/s² and 1 µs.
func expectClose(
    _ actual: AccelSample, _ expected: AccelSample, tolerance: Double = 1e-9,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let close =
        abs(actual.timestamp - expected.timestamp) < 1e-6 && abs(actual.x - expected.x) < tolerance
        && abs(actual.y - expected.y) < tolerance && abs(actual.z - expected.z) < tolerance
    #expect(close, "got \(actual), expected \(expected)", sourceLocation: sourceLocation)
}

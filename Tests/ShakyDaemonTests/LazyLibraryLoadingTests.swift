import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// libiio and libsndfile are loaded only when the configured input or sound needs them: a daemon reading a trace
/// with no sound device never maps them (nor the libraries they bring), one that needs them maps them.
@Suite("shakyd maps libiio and libsndfile only when its input or sound needs them")
struct LazyLibraryLoadingTests {
    /// The shared libraries `pid` has mapped (the file names in `/proc/PID/maps`).
    private static func mappedLibraries(_ pid: pid_t) throws -> Set<String> {
        // Read to the end: /proc files report no size, and a single read returns one page of them.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else {
            throw DaemonProcess.Failure("cannot open /proc/\(pid)/maps")
        }
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        return Set(
            maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).last.flatMap {
                    $0.hasPrefix("/") ? String($0.split(separator: "/").last ?? "") : nil
                }
            })
    }

    private static func maps(_ libraries: Set<String>, _ soname: String) -> Bool {
        libraries.contains { $0.hasPrefix(soname) }
    }

    @Test("a trace with sound device none: no libiio, no libsndfile, once the trace is being read")
    func traceWithoutSound() async throws {
        try await DaemonProcess.withRunning(arguments: ["--input", "demo"]) { daemon in
            let sensor = ShakyAPI.SensorInterface.Client(try await daemon.connect())
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while try await sensor.status().state == .absent, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await sensor.status().state != .absent, "the demo trace was never opened")
            let libraries = try Self.mappedLibraries(try #require(daemon.processID))
            #expect(Self.maps(libraries, "libevdev.so"), "the maps were not read: \(libraries.sorted())")
            #expect(!Self.maps(libraries, "libiio.so"))
            #expect(!Self.maps(libraries, "libsndfile.so"))
            #expect(!Self.maps(libraries, "libxml2.so"))
            #expect(!Self.maps(libraries, "libFLAC.so"))
        }
    }

    @Test("an IIO input and a sound device: libiio and libsndfile are loaded")
    func iioWithSound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shaky-lazy-libraries-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = folder.appendingPathComponent("asound.conf")
        try ALSAFilePCM.configuration([("shakytest", folder.appendingPathComponent("capture.raw").path)])
            .write(to: configuration, atomically: true, encoding: .utf8)
        try await DaemonProcess.withRunning(
            arguments: ["--input", "iio:shaky-test-accel", "--sound-device", "shakytest"],
            environment: ["ALSA_CONFIG_PATH": configuration.path]
        ) { daemon in
            let pid = try #require(daemon.processID)
            // The cues are decoded before the socket answers; the named IIO device is looked for as the reader starts.
            #expect(Self.maps(try Self.mappedLibraries(pid), "libsndfile.so.1"))
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while !Self.maps(try Self.mappedLibraries(pid), "libiio.so.0"), clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(Self.maps(try Self.mappedLibraries(pid), "libiio.so.0"), "\(daemon.log())")
        }
    }
}

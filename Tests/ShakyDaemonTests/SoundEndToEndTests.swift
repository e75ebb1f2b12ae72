import Foundation
import ShakyProtocol
import ShakyTesting
import Testing

/// The whole path from a shake in a trace to the speaker, through the real `shakyd`: trace replay → shake detector →
/// runtime → hint event and cue → ALSA, captured by alsa-lib's `file` plugin with a `null` slave.
@Suite("shakyd end to end: a shake in a trace is heard as the hint cue")
struct SoundEndToEndTests {
    /// A trace at 100 Hz, face up: `rest` seconds still, one second of 4 Hz ±2 g shaking along x, then still again.
    static func shakeTrace(rest: Double = 1.5) -> String {
        SyntheticTrace.shake(device: "synthetic shake", seconds: 2 * rest + 1, shakingFrom: rest, to: rest + 1)
    }

    /// The samples of a 16-bit PCM WAV file's `data` chunk.
    static func wavSamples(_ url: URL) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if id == "data" { return int16LittleEndian(bytes[(offset + 8)..<min(offset + 8 + size, bytes.count)]) }
            offset += 8 + size + (size & 1)
        }
        throw DaemonProcess.Failure("no data chunk in \(url.path)")
    }

    static func int16LittleEndian(_ bytes: ArraySlice<UInt8>) -> [Int16] {
        let start = bytes.startIndex
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[start + $0]) | UInt16(bytes[start + $0 + 1]) << 8)
        }
    }

    /// Where `needle` occurs as a contiguous run in `haystack`, if it does.
    static func firstRun(of needle: [Int16], in haystack: [Int16]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Runs `shakyd detect` on a trace and returns its standard output.
    static func detect(_ trace: URL, executable: URL) async throws -> String {
        let child = try ChildProcess(executable.path, ["detect", trace.path])
        try await child.waitForExit(within: .seconds(60))
        return child.standardOutput
    }

    @Test("the synthetic trace holds exactly one shake for `shakyd detect`")
    func traceTriggersOnce() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("shake.csv")
        try Self.shakeTrace().write(to: trace, atomically: true, encoding: .utf8)
        let rows = try await Self.detect(trace, executable: URL(fileURLWithPath: BuiltProduct.path("shakyd")))
            .split(separator: "\n").map(String.init)
        #expect(rows.first == "file,t")
        #expect(rows.count == 2, "expected one trigger, got \(rows.dropFirst())")
        let time = rows.dropFirst().first.flatMap { Double($0.split(separator: ",").last ?? "") }
        #expect(time.map { $0 >= 1.5 && $0 <= 2.0 } == true, "trigger at \(String(describing: time)) s")
    }

    @Test("shakyd with a trace input and a file PCM: the shake gives a hint event and the capture holds the hint cue")
    func shakeIsHeard() async throws {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf"),
            "alsa-lib's /usr/share/alsa/alsa.conf is missing: install libasound2 (make setup)")
        let hintCue = try Self.wavSamples(BuiltProduct.checkout.appendingPathComponent("sounds/hint.wav"))
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("shake.csv")
        try Self.shakeTrace().write(to: trace, atomically: true, encoding: .utf8)
        let capture = folder.appendingPathComponent("capture.raw")
        let configuration = folder.appendingPathComponent("asound.conf")
        try ALSAFilePCM.configuration([("shakytest", capture.path)])
            .write(to: configuration, atomically: true, encoding: .utf8)

        try await DaemonProcess.withRunning(
            arguments: ["--sound-device", "shakytest", "--input", "trace:\(trace.path)"],
            environment: ["ALSA_CONFIG_PATH": configuration.path]
        ) { daemon in
            let client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack(
                "Sound",
                questions: [ShakyAPI.Question(text: "A tall tower for ships", answer: "lighthouse", difficulty: .easy)])
            let watch = try await DaemonProcess.GameClient(try await daemon.connect()).watchInBackground()
            _ = try await watch.next(within: .seconds(10)) { $0.kind == .state }
            _ = try await client.new(
                ShakyAPI.GameInterface.NewParameters(teams: ["Owls", "Foxes"], packs: ["Sound"], questions: 1, seed: 3))
            _ = try await client.next()  // the round opens: the sensor is read from now on, the shake comes 1.5 s later

            let hint = try? await watch.next(within: .seconds(15)) { $0.kind == .hint }
            let event = try #require(hint, "no hint event within 15 s; the daemon's log:\n\(daemon.log())")
            #expect(event.source == "shake")
            #expect(event.hintsUsed == 1)

            // The cue is written by the output thread after the event: wait (bounded) until the whole cue is captured.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(10)
            var captured: [Int16] = []
            while clock.now < deadline {
                if let data = FileManager.default.contents(atPath: capture.path) {
                    captured = Self.int16LittleEndian([UInt8](data)[...])
                    if Self.firstRun(of: hintCue, in: captured) != nil { break }
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            await watch.cancel()
            await client.transport.close()
            let termination = await daemon.terminate()
            #expect(
                termination == .exited(0), "shakyd did not stop cleanly on SIGTERM: \(String(describing: termination))")

            let final = Self.int16LittleEndian([UInt8](try Data(contentsOf: capture))[...])
            #expect(
                Self.firstRun(of: hintCue, in: final) != nil,
                "the \(hintCue.count) samples of hint.wav are not in the \(final.count) captured samples")
            #expect(final.count >= captured.count)
        }
    }

    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shaky-sound-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

import Foundation
import ShakyCore
import ShakyTesting
import Testing

@Suite struct TraceFormatTests {
    private func temporaryTrace(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func read(_ text: String) throws -> [AccelSample] {
        let path = try temporaryTrace(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try TraceReader(path: path).readAll()
    }

    @Test(arguments: [
        ("t,x,y,z\n0,1,abc,3\n", 2, "column y is not a finite number: \"abc\""),
        ("t,x,y,z\n0,1,2,nan\n", 2, "column z is not a finite number: \"nan\""),
        ("t,x,y,z\n0,1,,3\n", 2, "column y is not a finite number: \"\""),
        ("t,x,y,z\n0,1,2\n", 2, "expected 4 columns (t,x,y,z), found 3"),
        ("t,x,y,z\n0,1,2,3,4\n", 2, "more than 4 columns"),
        ("t,x,y,z\n1,0,0,9.8\n0.5,0,0,9.8\n", 3, "time goes backwards or repeats: t=0.5 after t=1.0"),
        ("t,x,y,z\n1,0,0,9.8\n1,0,0,9.8\n", 3, "time goes backwards or repeats"),
        ("# device: x\n0,1,2,3\n", 2, "expected the header \"t,x,y,z\", found \"0,1,2,3\""),
        ("time,x,y,z\n", 1, "expected the header"),
        ("", 0, "no \"t,x,y,z\" header: empty or not a trace"),
        ("# only a comment\n\n", 0, "no \"t,x,y,z\" header"),
        ("t,x,y,z\n0,0,0,9.8\n1e300,0,0,9.8\n", 3, "t=1e+300 is out of range"),
        ("t,x,y,z\n1e17,0,0,9.8\n", 2, "is out of range: timestamps are seconds within ±4294967296"),
        ("t,x,y,z\n-4294967297,0,0,9.8\n", 2, "is out of range"),
        ("t,x,y,z\n0,0,0,9.8\n1e400,0,0,9.8\n", 3, "column t is not a finite number: \"1e400\""),
        ("t,x,y,z\n0,inf,0,9.8\n", 2, "column x is not a finite number: \"inf\""),
        ("t,x,y,z\n0, 1 ,2 , 3 ,\n", 2, "more than 4 columns"),
        ("t,x,y,z\n0,1e-,2,3\n", 2, "column x is not a finite number: \"1e-\""),
    ])
    func malformedTracesNameFileLineAndProblem(text: String, line: Int, problem: String) throws {
        let path = try temporaryTrace(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try TraceReader(path: path).readAll()
        } throws: { error in
            guard let error = error as? TraceFormatError else { return false }
            return error.file == path && error.line == line && error.problem.contains(problem)
                && error.description.hasPrefix(line > 0 ? "\(path):\(line): " : "\(path): ")
        }
    }

    @Test func invalidUTF8IsRejectedWithItsLine() throws {
        let path = try temporaryTrace(Array("t,x,y,z\n0,1,2,3\n".utf8) + [0x30, 0x2C, 0xFF, 0x2C, 0x31, 0x0A])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TraceFormatError(file: path, line: 3, problem: "not valid UTF-8 text")) {
            _ = try TraceReader(path: path).readAll()
        }
    }

    @Test func timestampsUpToTheLimitAreKept() throws {
        let samples = try read("t,x,y,z\n-4294967296,0,0,9.8\n4294967296,0,0,9.8\n")
        #expect(samples.map(\.timestamp) == [-TraceFormat.timestampLimit, TraceFormat.timestampLimit])
    }

    @Test func aLineLongerThanTheLimitIsRejectedWithItsLine() throws {
        let long = String(repeating: "0", count: TraceReader.maximumLineLength + 1)
        let path = try temporaryTrace(Array("t,x,y,z\n0,0,0,9.8\n\(long)".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try TraceReader(path: path).readAll()
        } throws: { error in
            (error as? TraceFormatError).map { $0.line == 3 && $0.problem.contains("longer than") } ?? false
        }
    }

    @Test func numbersParseExactlyAsTheStandardLibraryDoes() throws {
        var generator = SplitMix64(seed: 0xD1_6175)
        var texts = [
            "0", "-0", "+1", "007", "1.", ".5", "-.25", "9.80665", "1e5", "1E-5", "1e+22", "1e23", "1e-22", "1e-23",
            "123456789012345678", "1234567890123456789", "12345678901234567890", "9007199254740993",
            "0.1234567890123456789", "4.9e-324", "1.7976931348623157e308", "0x1p3", "00000000000000000000001.5",
            "0.38306000000000004", "-1.2345678901234567e+299", "10.133000000000001", "0.000000000000000000000012345",
            "123456789012345678901234567890", "1234567890.1234567890123",
        ]
        for _ in 0..<5_000 {
            let digits = String(generator.next() % 100_000_000_000)
            let point = Int(generator.next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text == "." { text = "0" }
            if generator.next() % 2 == 0 { text = "-" + text }
            if generator.next() % 3 == 0 { text += "e\(Int(generator.next() % 60) - 30)" }
            texts.append(text)
        }
        for text in texts {
            var parser = TraceLineParser(file: "numbers.csv")
            _ = try parser.parse(line: "t,x,y,z", number: 1)
            let sample = try parser.parse(line: "0,\(text),\(text), 1 ", number: 2)
            let expected = try #require(Double(text))
            #expect(sample?.x.bitPattern == expected.bitPattern, "\(text)")
            #expect(sample?.y.bitPattern == expected.bitPattern && sample?.z == 1, "\(text)")
        }
    }

    @Test func longDecimalsParseExactlyAsTheStandardLibraryDoes() throws {
        var generator = SplitMix64(seed: 0x17_D161)
        var texts = [
            "9007199254740993e-1", "0.9007199254740993", "9.999999999999999999", "0.30000000000000004",
            "2.2250738585072014e-18", "1.0000000000000002", "0.99999999999999989", "12345678901234567.9",
        ]
        for _ in 0..<20_000 {
            let digits = String(generator.next() % 10_000_000_000_000_000_000).leftPadded(to: 15)
            let point = Int(generator.next() % UInt64(digits.count))
            texts.append(String(digits.prefix(point)) + "." + String(digits.dropFirst(point)))
        }
        for text in texts {
            var parser = TraceLineParser(file: "numbers.csv")
            _ = try parser.parse(line: "t,x,y,z", number: 1)
            let sample = try parser.parse(line: "0,\(text),-\(text),1", number: 2)
            let expected = try #require(Double(text))
            #expect(sample?.x.bitPattern == expected.bitPattern, "\(text)")
            #expect(sample?.y.bitPattern == (-expected).bitPattern, "-\(text)")
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: TraceFormatError.self) { _ = try TraceReader(path: "/nonexistent/dir/trace.csv") }
    }

    @Test func metadataIsReadFromCommentsBeforeTheHeader() throws {
        let text = """
            # device: iio:device0 (mpu6050)
            # rate: 100
            # a note without a key
            #mount:0, 1, 0; -1, 0, 0; 0, 0, 1
            t,x,y,z
            # device: not metadata after the header
            0.0,0.12,-0.03,9.81

            0.01,0.11,-0.02,9.80\r
            """
        let path = try temporaryTrace(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try TraceReader(path: path)
        #expect(
            reader.metadata
                == TraceMetadata([
                    (key: "device", value: "iio:device0 (mpu6050)"), (key: "rate", value: "100"),
                    (key: "mount", value: "0, 1, 0; -1, 0, 0; 0, 0, 1"),
                ]))
        #expect(reader.metadata["rate"] == "100" && reader.metadata["missing"] == nil)
        #expect(
            try reader.readAll() == [
                AccelSample(timestamp: 0, x: 0.12, y: -0.03, z: 9.81),
                AccelSample(timestamp: 0.01, x: 0.11, y: -0.02, z: 9.8),
            ])
    }

    @Test func aHeaderOnlyTraceHasNoSamples() throws {
        #expect(try read("t,x,y,z\n").isEmpty)
        #expect(try read(" t , x , y , z ").isEmpty)
    }

    @Test func recordThenReplayIsSampleExact() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var time = -1.5
        let samples = (0..<20_000).map { index -> AccelSample in
            time += Double(generator.next() % 1_000_000 + 1) * 1e-9 * Double(1 + index % 7)
            func value() -> Double {
                let magnitude = [1e-300, 1e-9, 1, 9.80665, 1e6, 1e300][Int(generator.next() % 6)]
                return (Double(generator.next()) / Double(UInt64.max) * 2 - 1) * magnitude
            }
            return AccelSample(timestamp: time, x: value(), y: value(), z: value())
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let metadata = TraceMetadata([(key: "device", value: "random"), (key: "rate", value: "100")])
        let writer = try TraceWriter(path: path, metadata: metadata)
        for sample in samples { try writer.write(sample) }
        try writer.close()
        let reader = try TraceReader(path: path)
        #expect(reader.metadata == metadata)
        let replayed = try reader.readAll()
        #expect(replayed.count == samples.count)
        #expect(replayed == samples, "every bit of every sample survives")
    }

    @Test func aMultiHourTraceIsStreamedInBoundedMemory() async throws {
        let rate = 100
        let hours = 3
        let count = hours * 3600 * rate  // 1 080 000 samples, about 28 MB of text
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(
            FileHandle(forWritingAtPath: FileManager.default.createFile(atPath: path, contents: nil) ? path : ""))
        var chunk = "# rate: 100\nt,x,y,z\n"
        for index in 0..<count {
            chunk += "\(index / rate).\(String(index % rate).leftPadded(to: 2)),0.125,-0.5,9.8125\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
        let fileSize = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)

        // Tests run in parallel in this process, so its own memory says nothing: stream the file through
        // `shakyd detect` in a child process and compare that child's peak resident memory with a tiny trace's.
        let small = path + ".small.csv"
        defer { try? FileManager.default.removeItem(atPath: small) }
        try "t,x,y,z\n0,0.125,-0.5,9.8125\n".write(toFile: small, atomically: true, encoding: .utf8)
        let baseline = try await peakResidentBytes(detecting: small)
        let peak = try await peakResidentBytes(detecting: path)
        #expect(fileSize > 25_000_000, "the trace must be bigger than the memory bound")
        #expect(
            peak - baseline < 16_000_000,
            "streaming a \(fileSize)-byte trace took \(peak) bytes at peak, against \(baseline) for a one-line trace")

        let reader = try TraceReader(path: path)
        var read = 0
        var last = AccelSample(timestamp: -1, x: 0, y: 0, z: 0)
        while let sample = try reader.next() {
            read += 1
            last = sample
        }
        #expect(read == count)
        #expect(last == AccelSample(timestamp: Double(count - 1) / Double(rate), x: 0.125, y: -0.5, z: 9.8125))
    }

    /// The peak resident memory of `shakyd detect FILE`, measured by its parent (Debian's python3).
    private func peakResidentBytes(detecting file: String) async throws -> Int {
        let script = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let child = try ChildProcess(
            "/usr/bin/python3", ["-c", script, try BuiltProduct.path("shakyd"), "detect", file])
        let exit = try await child.waitForExit(within: .seconds(120))
        #expect(exit.status == 0, "\(child.standardError)")
        return (Int(child.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) * 1024
    }
}
/// A small deterministic random number generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

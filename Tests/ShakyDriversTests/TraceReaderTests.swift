import Foundation
import ShakyCore
import ShakyDrivers
import ShakyTesting
import Testing

/// Trace files: read in bounded memory by the same rules as the pure parser (`TraceFormatTests`), written so that
/// reading back gives every sample bit for bit.
@Suite struct TraceReaderTests {
    private func temporaryTrace(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        ("t,x,y,z\n0,1,abc,3\n", 2, "column y is not a finite number: \"abc\""),
        ("# only a comment\n\n", 0, "no \"t,x,y,z\" header"),
    ])
    func aMalformedFileIsNamedWithItsLineAndProblem(text: String, line: Int, problem: String) throws {
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

    @Test func aMissingFileIsAnError() {
        #expect(throws: TraceFormatError.self) { _ = try TraceReader(path: "/nonexistent/dir/trace.csv") }
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

    /// The reader parses runs of plain lines a batch at a time and every other line by the full rules: over a file
    /// of several chunks that mixes the two (blanks around numbers, `\r\n`, comments and blank lines, exponents,
    /// long and short numbers, a last line without a newline), it gives the same samples, bit for bit, as the
    /// line-by-line parser.
    @Test func batchesAndSingleLinesGiveTheSameSamples() throws {
        var generator = SplitMix64(seed: 0xBA7C4)
        var text = "# rate: 100\nt,x,y,z\n"
        var time = 1_000.0
        for _ in 0..<12_000 {
            time += Double(generator.next() % 1_000 + 1) / 10_000
            let value = (Double(generator.next() >> 11) / Double(1 << 53) - 0.5) * 40
            let columns = ["\(time)", "\(value)", String(format: "%.3f", value), "\(value / 7e6)"]
            switch generator.next() % 16 {
            case 0: text += " " + columns.joined(separator: " , ") + " \r\n"
            case 1: text += columns.joined(separator: ",") + "\r\n"
            case 2: text += "# a comment\n\n\t\n"
            case 3:
                text +=
                    [time, value, value, value / 7e6].map { String(format: "%.9e", $0) }.joined(separator: ",") + "\n"
            case 4: text += columns.joined(separator: ",") + "\t\n"
            default: text += columns.joined(separator: ",") + "\n"
            }
        }
        text += "\(time + 1),0.000000000000000000001234,-0,+9.80665"
        let path = try temporaryTrace(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try TraceFormat.parse(text, file: path).samples
        let replayed = try TraceReader(path: path).readAll()
        #expect(text.utf8.count > 3 * 64 * 1024, "the file spans several chunks")
        #expect(replayed.count == expected.count)
        #expect(replayed.elementsEqual(expected) { $0.bitPatterns == $1.bitPatterns })
    }

    /// A bad line inside a run of plain lines stops the batch there and is refused with its own line number and the
    /// same problem as the line-by-line parser gives, after every sample before it.
    @Test(arguments: [
        ("4294967296.5,0,0,9.8", "is out of range: timestamps are seconds within ±4294967296"),
        ("1.005,0,0,9.8", "time goes backwards or repeats: t=1.005 after t="),
        ("1e17,0,0,9.8", "is out of range"),
        ("5000,0,0", "expected 4 columns (t,x,y,z), found 3"),
        ("5000,0,0,9.8,1", "more than 4 columns"),
        ("5000,0,0.1.2,9.8", "column y is not a finite number: \"0.1.2\""),
        ("5000,0,12345678901234567890123,abc", "column z is not a finite number: \"abc\""),
    ])
    func aBadLineInABatchIsRefusedWithItsLine(bad: String, problem: String) throws {
        let good = (0..<3_000).map { "\(2 + Double($0) / 100),0.125,-0.019153000000000002,9.80665\n" }.joined()
        let text = "t,x,y,z\n" + good + bad + "\n" + good
        let path = try temporaryTrace(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try TraceReader(path: path)
        var read = 0
        #expect {
            while try reader.next() != nil { read += 1 }
        } throws: { error in
            guard let error = error as? TraceFormatError else { return false }
            return error.file == path && error.line == 3_002 && error.problem.contains(problem)
        }
        #expect(read == 3_000)
        #expect {
            _ = try TraceFormat.parse(text, file: path)
        } throws: { error in
            (error as? TraceFormatError).map { $0.line == 3_002 && $0.problem.contains(problem) } ?? false
        }
    }

    /// Streaming keeps memory bounded: `shakyd detect` reads a generated 5 MB trace through a pipe, and its peak
    /// resident memory (measured by its parent, Debian's python3, since tests run in parallel in this process) stays
    /// within 1 MB of a tiny trace's, where holding the text or its samples would take 5 MB more. The shake at the
    /// end of the stream is found, so the whole stream was read.
    @Test func aLongTraceIsStreamedInBoundedMemory() async throws {
        let stillSamples = 200_000
        let small = try await detectThroughPipe(stillSamples: 0)
        let long = try await detectThroughPipe(stillSamples: stillSamples)
        #expect(long.bytes > 5_000_000, "the trace must be much bigger than the memory bound")
        #expect(
            long.peakBytes - small.peakBytes < 1_000_000,
            "streaming a \(long.bytes)-byte trace took \(long.peakBytes) bytes at peak, against \(small.peakBytes)")
        let end = Double(stillSamples) / 100
        #expect(
            long.triggers.contains { $0 >= end && $0 < end + 3 },
            "the shake at the end of the stream (from t=\(end)) was not found: \(long.triggers)")
    }

    /// Pipes `stillSamples` samples at rest, then 3 s of shaking, at 100 Hz into `shakyd detect /dev/stdin`.
    ///
    /// The parent starts `shakyd` before it makes any data and writes it in chunks: a child's peak memory counts
    /// the parent's pages until it runs the program, so the parent stays small.
    private func detectThroughPipe(
        stillSamples: Int
    ) async throws -> (bytes: Int, peakBytes: Int, triggers: [Double]) {
        let script = """
            import math, resource, subprocess, sys
            shakyd, still = sys.argv[1], int(sys.argv[2])
            child = subprocess.Popen([shakyd, "detect", "/dev/stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            written = 0
            def send(lines):
                global written
                data = "".join(line + "\\n" for line in lines).encode()
                child.stdin.write(data)
                written += len(data)
            send(["# rate: 100", "t,x,y,z"])
            for start in range(0, still, 10000):
                send("%d.%02d,0.125,-0.5,9.8125" % (i // 100, i % 100) for i in range(start, min(start + 10000, still)))
            send("%d.%02d,%.4f,-0.5,9.8125" % ((still + k) // 100, (still + k) % 100, 25 * math.sin(math.pi * k / 12.5))
                 for k in range(300))
            child.stdin.close()
            out = child.stdout.read()
            if child.wait() != 0:
                sys.exit("shakyd detect failed")
            print(written, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.stdout.write(out.decode())
            """
        let child = try ChildProcess(
            "/usr/bin/python3", ["-c", script, try BuiltProduct.path("shakyd"), "\(stillSamples)"])
        let exit = try await child.waitForExit(within: .seconds(60))
        try #require(exit.status == 0, "\(child.standardError)")
        let lines = child.standardOutput.split(separator: "\n")
        let figures = try #require(lines.first).split(separator: " ").compactMap { Int($0) }
        try #require(figures.count == 2 && lines.dropFirst().first == "file,t", "\(child.standardOutput)")
        let triggers = lines.dropFirst(2).compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }
        return (figures[0], figures[1] * 1024, triggers)
    }
}

extension AccelSample {
    /// The four values' bits, to compare samples exactly (`-0.0` is not `0.0` here).
    fileprivate var bitPatterns: [UInt64] { [timestamp, x, y, z].map(\.bitPattern) }
}

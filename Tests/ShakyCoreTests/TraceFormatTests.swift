import ShakyCore
import ShakyTesting
import Testing

/// The trace format's rules, checked on the pure parser; `TraceReaderTests` (ShakyDriversTests) checks that files
/// are read by the same rules.
@Suite struct TraceFormatTests {
    private func read(_ text: String) throws -> [AccelSample] {
        try TraceFormat.parse(text, file: "trace.csv").samples
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
        ("t,x,y,z\n0,inf,0,9.8\n", 2, "column x is not a finite number: \"inf\""),
        ("t,x,y,z\n0, 1 ,2 , 3 ,\n", 2, "more than 4 columns"),
        ("t,x,y,z\n0,1e-,2,3\n", 2, "column x is not a finite number: \"1e-\""),
        ("t,x,y,z\n0,0,0,9.8\n1e400,0,0,9.8\n", 3, "column t is not a finite number: \"1e400\""),
    ])
    func malformedTracesNameFileLineAndProblem(text: String, line: Int, problem: String) throws {
        #expect {
            _ = try read(text)
        } throws: { error in
            guard let error = error as? TraceFormatError else { return false }
            return error.file == "trace.csv" && error.line == line && error.problem.contains(problem)
                && error.description.hasPrefix(line > 0 ? "trace.csv:\(line): " : "trace.csv: ")
        }
    }

    @Test func timestampsUpToTheLimitAreKept() throws {
        let samples = try read("t,x,y,z\n-4294967296,0,0,9.8\n4294967296,0,0,9.8\n")
        #expect(samples.map(\.timestamp) == [-TraceFormat.timestampLimit, TraceFormat.timestampLimit])
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
            let significant = String(generator.next() % 10_000_000_000_000_000_000)
            let digits = String(repeating: "0", count: max(0, 15 - significant.count)) + significant
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

    /// The word-at-a-time path, shape by shape: what `shakyd record` writes (shortest forms of doubles in a trace's
    /// ranges, up to 17 digits), short decimals, integer parts of 8 to 19 digits, leading zeros, signs, and decimals
    /// that lie exactly on, or one place beside, the midpoint between two doubles (where rounding to even decides).
    @Test func wordAtATimeNumbersParseExactlyAsTheStandardLibraryDoes() throws {
        var generator = SplitMix64(seed: 0x17_0005)
        var texts: [String] = []
        for _ in 0..<6_000 {
            let magnitude = [1e-3, 0.1, 1, 9.80665, 100, 1e5, 4e9][Int(generator.next() % 7)]
            let value = Double(generator.next() >> 11) / Double(1 << 53) * magnitude
            texts.append("\(value)")
            texts.append("\((value * 1000).rounded() / 1000)")
        }
        for _ in 0..<3_000 {
            let integerDigits = Int(generator.next() % 20)
            let placeDigits = Int(generator.next() % UInt64(20 - integerDigits))
            func digits(_ count: Int) -> String {
                String((0..<count).map { _ in Character(String(generator.next() % 10)) })
            }
            let sign = ["", "-", "+"][Int(generator.next() % 3)]
            texts.append(
                sign + digits(integerDigits) + (placeDigits > 0 || integerDigits == 0 ? "." : "") + digits(placeDigits))
        }
        // (2M + 1)·2^-places, the midpoint above M·2^(1-places), written out exactly: `places` binary places are as
        // many decimal ones.
        for places in 1...13 {
            for _ in 0..<40 {
                let odd = (UInt64(1) << 53 | generator.next() % (1 << 53)) | 1
                let fraction = (odd & (1 << places - 1)) * (0..<places).reduce(1) { product, _ in product * 5 }
                let written = String(fraction)
                let text = "\(odd >> places)." + String(repeating: "0", count: places - written.count) + written
                let last = text.last?.wholeNumberValue ?? 0
                let stem = String(text.dropLast())
                texts += [text, stem + String((last + 1) % 10), stem + String((last + 9) % 10)]
            }
        }
        var parser = TraceLineParser(file: "numbers.csv")
        _ = try parser.parse(line: "t,x,y,z", number: 1)
        for (number, text) in texts.enumerated() {
            guard let expected = Double(text), expected.isFinite else { continue }
            let sample = try parser.parse(line: "\(number),\(text),-1,\(text)", number: number + 2)
            #expect(sample?.x.bitPattern == expected.bitPattern, "\(text)")
            #expect(sample?.z.bitPattern == expected.bitPattern, "\(text) at the end of the line")
        }
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
        let trace = try TraceFormat.parse(text, file: "trace.csv")
        #expect(
            trace.metadata
                == TraceMetadata([
                    (key: "device", value: "iio:device0 (mpu6050)"), (key: "rate", value: "100"),
                    (key: "mount", value: "0, 1, 0; -1, 0, 0; 0, 0, 1"),
                ]))
        #expect(trace.metadata["rate"] == "100" && trace.metadata["missing"] == nil)
        #expect(
            trace.samples == [
                AccelSample(timestamp: 0, x: 0.12, y: -0.03, z: 9.81),
                AccelSample(timestamp: 0.01, x: 0.11, y: -0.02, z: 9.8),
            ])
    }

    @Test func aByteOrderMarkBeforeTheFirstLineIsSkipped() throws {
        #expect(try read("\u{FEFF}t,x,y,z\r\n0,0,0,9.8\r\n") == [AccelSample(timestamp: 0, x: 0, y: 0, z: 9.8)])
        let trace = try TraceFormat.parse("\u{FEFF}# rate: 50\nt,x,y,z\n", file: "trace.csv")
        #expect(trace.metadata["rate"] == "50")
        // Only at the very start: anywhere else it is text like any other.
        #expect(throws: TraceFormatError.self) { _ = try read("t,x,y,z\n\u{FEFF}0,0,0,9.8\n") }
    }

    @Test func aHeaderOnlyTraceHasNoSamples() throws {
        #expect(try read("t,x,y,z\n").isEmpty)
        #expect(try read(" t , x , y , z ").isEmpty)
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The recorded-trace format: CSV with the header `t,x,y,z`, seconds and m/s², plus `#` comment lines.
///
/// ```
/// # device: iio:device0 (mpu6050)
/// # rate: 100
/// t,x,y,z
/// 0.0,0.12,-0.03,9.81
/// 0.01,0.11,-0.02,9.80
/// ```
///
/// Comment lines before the header of the form `# key: value` are metadata (``TraceMetadata``);
/// other comment lines and blank lines are ignored anywhere. `t` must increase strictly.
public enum TraceFormat {
    /// The one header line.
    public static let header = "t,x,y,z"
}

/// What a trace says about itself in its `# key: value` comment lines.
public struct TraceMetadata: Sendable, Equatable {
    /// Keys and values in file order.
    public var entries: [(key: String, value: String)]

    /// Creates metadata from ordered entries.
    public init(_ entries: [(key: String, value: String)] = []) {
        self.entries = entries
    }

    /// The value of the first entry named `key`, if any.
    public subscript(key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A malformed trace: which file, which line, and what is wrong there.
public struct TraceFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace's path as given.
    public var file: String
    /// The 1-based line number, or 0 when the problem is not on one line (an empty file).
    public var line: Int
    /// What is wrong, for a person.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String {
        line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)"
    }
}

/// Parses one line of a trace at a time; the streaming core of the file reader (`TraceReader`, in `ShakyDrivers`).
///
/// Feed it lines in order with ``parse(line:number:)``; it returns a sample for each data line. Data lines are
/// parsed from their bytes (no string is made for them); a number the fast path does not take (more than 19
/// significant digits, a hexadecimal float) is handed to the standard library's exact conversion. A file reader
/// takes runs of plain data lines at once with ``parseCommonLines(_:into:)``.
public struct TraceLineParser: Sendable {
    /// The file name used in errors.
    public let file: String
    /// Metadata read so far (complete once the header has been seen).
    public private(set) var metadata = TraceMetadata()
    /// Whether the header line has been read.
    public private(set) var sawHeader = false
    private var lastTimestamp = -Double.infinity

    /// Creates a parser for the file named `file` (used in errors only).
    public init(file: String) {
        self.file = file
    }

    /// Parses one line (without its line terminator). Returns the sample on a data line, `nil` otherwise.
    public mutating func parse(line: Substring, number: Int) throws(TraceFormatError) -> AccelSample? {
        let bytes = Array(line.utf8)
        let result = bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(TraceFormatError) in try parse(bytes: bytes, number: number) }
        }
        return try result.get()
    }

    /// Parses the data lines at the start of `bytes` that are in the common form (four plain decimal numbers, with
    /// blanks at most around them, each line ending in `\n` or `\r\n` inside `bytes`), into `samples`, as many as
    /// fit: the fast path of a file reader, for many lines per call.
    ///
    /// Stops before the first line that is anything else, that does not end inside `bytes`, or whose time is out of
    /// range or not after the last one: hand that line to ``parse(bytes:number:)``, which reads it by the full rules
    /// or says what is wrong with it. Returns how many samples (each one line) were written and how many bytes they
    /// took; none before the header has been read.
    public mutating func parseCommonLines(
        _ bytes: UnsafeBufferPointer<UInt8>, into samples: UnsafeMutableBufferPointer<AccelSample>
    ) -> (samples: Int, bytes: Int) {
        guard sawHeader, let destination = samples.baseAddress else { return (0, 0) }
        var parsed = 0
        var consumed = 0
        var last = lastTimestamp
        while parsed < samples.count {
            var index = consumed
            guard let sample = TraceNumberScanner.sample(bytes, from: &index, untilNewline: true),
                abs(sample.timestamp) <= TraceFormat.timestampLimit, sample.timestamp > last
            else { break }
            destination[parsed] = sample
            last = sample.timestamp
            parsed += 1
            consumed = index
        }
        lastTimestamp = last
        return (parsed, consumed)
    }

    /// Parses one line given as its bytes (without the line terminator).
    public mutating func parse(
        bytes line: UnsafeBufferPointer<UInt8>, number: Int
    ) throws(TraceFormatError) -> AccelSample? {
        var end = line.count
        if end > 0 && line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = 0
        // The byte order mark a spreadsheet or Windows editor writes first ("CSV UTF-8"), which is not the header's.
        if number == 1, end >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { start = 3 }
        while start < end && line[start].isBlank { start += 1 }
        if start == end { return nil }
        let content = UnsafeBufferPointer(rebasing: line[start..<end])
        if content[0] == UInt8(ascii: "#") {
            let text = try decode(content, number: number)
            if !sawHeader, let colon = text.firstIndex(of: ":") {
                let key = text[text.index(after: text.startIndex)..<colon].trimmingBlanks()
                let value = text[text.index(after: colon)...].trimmingBlanks()
                if !key.isEmpty { metadata.entries.append((key: key, value: value)) }
            }
            return nil
        }
        guard sawHeader else {
            let text = try decode(content, number: number)
            let columns = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
            guard columns == ["t", "x", "y", "z"] else {
                throw TraceFormatError(
                    file: file, line: number,
                    problem: "expected the header \"\(TraceFormat.header)\", found \"\(text)\"")
            }
            sawHeader = true
            return nil
        }
        let sample: AccelSample
        if let fast = TraceNumberScanner.sample(content) {
            sample = fast
        } else {
            sample = try slowSample(try decode(content, number: number), number: number)
        }
        guard abs(sample.timestamp) <= TraceFormat.timestampLimit else {
            throw TraceFormatError(
                file: file, line: number,
                problem:
                    "t=\(sample.timestamp) is out of range: timestamps are seconds within ±\(Int(TraceFormat.timestampLimit))"
            )
        }
        guard sample.timestamp > lastTimestamp else {
            throw TraceFormatError(
                file: file, line: number,
                problem: "time goes backwards or repeats: t=\(sample.timestamp) after t=\(lastTimestamp)")
        }
        lastTimestamp = sample.timestamp
        return sample
    }

    /// A data line the fast scanner did not take: split and convert it with the standard library, and say
    /// exactly what is wrong when it is not four finite numbers.
    private func slowSample(_ text: String, number: Int) throws(TraceFormatError) -> AccelSample {
        var values: [Double] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard values.count < 4 else {
                throw TraceFormatError(file: file, line: number, problem: "more than 4 columns")
            }
            let field = field.trimmingBlanks()
            guard let value = Double(field), value.isFinite else {
                let name = ["t", "x", "y", "z"][values.count]
                throw TraceFormatError(
                    file: file, line: number, problem: "column \(name) is not a finite number: \"\(field)\"")
            }
            values.append(value)
        }
        guard values.count == 4 else {
            throw TraceFormatError(
                file: file, line: number, problem: "expected 4 columns (t,x,y,z), found \(values.count)")
        }
        return AccelSample(timestamp: values[0], x: values[1], y: values[2], z: values[3])
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceFormatError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceFormatError(file: file, line: number, problem: "not valid UTF-8 text")
        }
        return text
    }

    /// Checks the end of input: a trace without a header line is an error.
    public func finish() throws(TraceFormatError) {
        guard sawHeader else {
            throw TraceFormatError(
                file: file, line: 0, problem: "no \"\(TraceFormat.header)\" header: empty or not a trace")
        }
    }
}

extension TraceFormat {
    /// The largest timestamp magnitude a trace may hold, seconds: 2³² s, about 136 years, which covers both
    /// monotonic and wall-clock recordings and keeps every later computation with times far from overflow.
    public static let timestampLimit = 4_294_967_296.0
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension TraceFormat {
    /// Parses a whole trace held in memory: its metadata and every sample.
    ///
    /// For small traces (fixtures, tests, a pasted snippet); a file of any length is streamed in bounded memory
    /// by `TraceReader` (in `ShakyDrivers`), with the same rules and the same errors.
    ///
    /// - Parameter file: the name used in errors.
    public static func parse(
        _ text: String, file: String
    ) throws(TraceFormatError) -> (metadata: TraceMetadata, samples: [AccelSample]) {
        var parser = TraceLineParser(file: file)
        var samples: [AccelSample] = []
        var number = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if let sample = try parser.parse(line: Substring(line), number: number) { samples.append(sample) }
        }
        try parser.finish()
        return (parser.metadata, samples)
    }
}

import Foundation

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

/// Parses one line of a trace at a time; the streaming core of ``TraceReader``.
///
/// Feed it lines in order with ``parse(line:number:)``; it returns a sample for each data line.
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
    public mutating func parse(line rawLine: Substring, number: Int) throws(TraceFormatError) -> AccelSample? {
        let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty { return nil }
        if trimmed.first == "#" {
            if !sawHeader, let colon = trimmed.firstIndex(of: ":") {
                let key = trimmed[trimmed.index(after: trimmed.startIndex)..<colon].trimmingCharacters(in: .whitespaces)
                let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if !key.isEmpty { metadata.entries.append((key: key, value: value)) }
            }
            return nil
        }
        guard sawHeader else {
            let columns = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns == ["t", "x", "y", "z"] else {
                throw TraceFormatError(
                    file: file, line: number,
                    problem: "expected the header \"\(TraceFormat.header)\", found \"\(trimmed)\"")
            }
            sawHeader = true
            return nil
        }
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var column = 0
        for field in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard column < 4 else {
                throw TraceFormatError(file: file, line: number, problem: "more than 4 columns")
            }
            let text = field.trimmingCharacters(in: .whitespaces)
            guard let value = Double(text), value.isFinite else {
                let name = ["t", "x", "y", "z"][column]
                throw TraceFormatError(
                    file: file, line: number, problem: "column \(name) is not a finite number: \"\(text)\"")
            }
            switch column {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
            column += 1
        }
        guard column == 4 else {
            throw TraceFormatError(file: file, line: number, problem: "expected 4 columns (t,x,y,z), found \(column)")
        }
        guard values.0 > lastTimestamp else {
            throw TraceFormatError(
                file: file, line: number,
                problem: "time goes backwards or repeats: t=\(values.0) after t=\(lastTimestamp)")
        }
        lastTimestamp = values.0
        return AccelSample(timestamp: values.0, x: values.1, y: values.2, z: values.3)
    }

    /// Checks the end of input: a trace without a header line is an error.
    public func finish() throws(TraceFormatError) {
        guard sawHeader else {
            throw TraceFormatError(
                file: file, line: 0, problem: "no \"\(TraceFormat.header)\" header: empty or not a trace")
        }
    }
}

/// Reads a trace file sample by sample, in bounded memory, however long the file is.
///
/// ```swift
/// let reader = try TraceReader(path: "shake.csv")
/// while let sample = try reader.next() { … }
/// ```
public final class TraceReader {
    /// The path as given.
    public let path: String
    private var parser: TraceLineParser
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var lineNumber = 0
    private var atEndOfFile = false
    private static let chunkSize = 64 * 1024

    /// Opens `path` and reads up to the header, so ``metadata`` is known.
    public init(path: String) throws(TraceFormatError) {
        self.path = path
        self.parser = TraceLineParser(file: path)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot open for reading (missing or not permitted)")
        }
        self.handle = handle
        while !parser.sawHeader, let line = try readLine() {
            lineNumber += 1
            if try parser.parse(line: line[...], number: lineNumber) != nil { break }
        }
        if !parser.sawHeader { try parser.finish() }
    }

    deinit {
        try? handle.close()
    }

    /// The `# key: value` lines before the header.
    public var metadata: TraceMetadata { parser.metadata }

    /// The next sample, or `nil` at the end of the file.
    public func next() throws(TraceFormatError) -> AccelSample? {
        while let line = try readLine() {
            lineNumber += 1
            if let sample = try parser.parse(line: line[...], number: lineNumber) { return sample }
        }
        return nil
    }

    /// Reads every remaining sample. For small files; stream large ones with ``next()``.
    public func readAll() throws(TraceFormatError) -> [AccelSample] {
        var samples: [AccelSample] = []
        while let sample = try next() { samples.append(sample) }
        return samples
    }

    private func readLine() throws(TraceFormatError) -> String? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = try decode(buffer[bufferStart..<newline])
                bufferStart = newline + 1
                return line
            }
            if atEndOfFile {
                guard bufferStart < buffer.count else { return nil }
                let line = try decode(buffer[bufferStart...])
                bufferStart = buffer.count
                return line
            }
            buffer.removeFirst(bufferStart)
            bufferStart = 0
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw TraceFormatError(file: path, line: lineNumber + 1, problem: "read failed: \(error)")
            }
            if chunk.isEmpty { atEndOfFile = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    private func decode(_ bytes: ArraySlice<UInt8>) throws(TraceFormatError) -> String {
        guard let line = String(validating: bytes, as: UTF8.self) else {
            throw TraceFormatError(file: path, line: lineNumber + 1, problem: "not valid UTF-8 text")
        }
        return line
    }
}

/// Writes a trace: metadata comments, the header, then one line per sample.
///
/// Numbers are written in their shortest exact form, so reading the file back gives the same samples bit for bit.
public final class TraceWriter {
    private let handle: FileHandle
    private var pending = ""
    /// The path written to.
    public let path: String

    /// Creates (or truncates) `path` and writes the metadata and header.
    public init(path: String, metadata: TraceMetadata = TraceMetadata()) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot create the file")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot open for writing")
        }
        self.handle = handle
        for (key, value) in metadata.entries {
            pending += "# \(key): \(value)\n"
        }
        pending += TraceFormat.header + "\n"
    }

    deinit {
        try? flush()
        try? handle.close()
    }

    /// Appends one sample.
    public func write(_ sample: AccelSample) throws {
        pending += "\(sample.timestamp),\(sample.x),\(sample.y),\(sample.z)\n"
        if pending.utf8.count >= 64 * 1024 { try flush() }
    }

    /// Writes buffered lines to the file.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        try handle.write(contentsOf: Data(pending.utf8))
        pending = ""
    }

    /// Flushes and closes the file.
    public func close() throws {
        try flush()
        try handle.close()
    }
}

import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a trace file sample by sample, in bounded memory, however long the file is.
///
/// ```swift
/// let reader = try TraceReader(path: "shake.csv")
/// while let sample = try reader.next() { … }
/// ```
///
/// The file is read in 64 KiB chunks with `read(2)` and its lines are parsed in place; a line longer than
/// ``maximumLineLength`` is an error rather than a reason to grow without end. Runs of plain data lines are parsed
/// a batch at a time (``TraceLineParser/parseCommonLines(_:into:)``) and handed out one by one; every other line
/// (comments, blanks, anything unusual or wrong) goes through the parser's full rules.
public final class TraceReader {
    /// The path as given.
    public let path: String
    /// The longest line accepted, bytes.
    public static let maximumLineLength = 64 * 1024
    private static let chunkSize = 64 * 1024
    private static let batchSize = 512
    private var parser: TraceLineParser
    private let descriptor: Int32
    private let storage: UnsafeMutableBufferPointer<UInt8>
    /// Unparsed bytes are `storage[start..<end]`.
    private var start = 0
    private var end = 0
    private var lineNumber = 0
    private var atEndOfFile = false
    /// Samples parsed ahead: `batch[batchNext..<batchCount]` are still to be handed out.
    private let batch: UnsafeMutableBufferPointer<AccelSample>
    private var batchNext = 0
    private var batchCount = 0

    /// Opens `path` and reads up to the header, so ``metadata`` is known.
    public init(path: String) throws(TraceFormatError) {
        self.path = path
        self.parser = TraceLineParser(file: path)
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw TraceFormatError(file: path, line: 0, problem: "cannot open for reading (missing or not permitted)")
        }
        self.descriptor = descriptor
        storage = .allocate(capacity: Self.chunkSize + Self.maximumLineLength)
        batch = .allocate(capacity: Self.batchSize)
        batch.initialize(repeating: AccelSample(timestamp: 0, x: 0, y: 0, z: 0))
        while !parser.sawHeader, let line = try nextLine() {
            lineNumber += 1
            if try parser.parse(bytes: line, number: lineNumber) != nil { break }
        }
        if !parser.sawHeader { try parser.finish() }
    }

    deinit {
        close(descriptor)
        storage.deallocate()
        batch.deallocate()
    }

    /// The `# key: value` lines before the header.
    public var metadata: TraceMetadata { parser.metadata }

    /// The next sample, or `nil` at the end of the file.
    public func next() throws(TraceFormatError) -> AccelSample? {
        if batchNext < batchCount {
            defer { batchNext += 1 }
            return batch[batchNext]
        }
        return try nextAfterBatch()
    }

    /// Parses a batch of plain data lines and returns its first sample; failing that, reads one line by the full
    /// rules, and so on.
    private func nextAfterBatch() throws(TraceFormatError) -> AccelSample? {
        while true {
            if start < end {
                let unparsed = UnsafeBufferPointer(start: storage.baseAddress! + start, count: end - start)
                let (samples, bytes) = parser.parseCommonLines(unparsed, into: batch)
                if samples > 0 {
                    start += bytes
                    lineNumber += samples
                    batchCount = samples
                    batchNext = 1
                    return batch[0]
                }
            }
            guard let line = try nextLine() else { return nil }
            lineNumber += 1
            if let sample = try parser.parse(bytes: line, number: lineNumber) { return sample }
        }
    }

    /// Reads every remaining sample. For small files; stream large ones with ``next()``.
    public func readAll() throws(TraceFormatError) -> [AccelSample] {
        var samples: [AccelSample] = []
        while let sample = try next() { samples.append(sample) }
        return samples
    }

    /// The next line's bytes, valid until the next call; `nil` at the end of the file.
    private func nextLine() throws(TraceFormatError) -> UnsafeBufferPointer<UInt8>? {
        let base = storage.baseAddress!
        var searched = start
        while true {
            if let newline = memchr(base + searched, Int32(UInt8(ascii: "\n")), end - searched) {
                let lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                let line = UnsafeBufferPointer(start: base + start, count: lineEnd - start)
                start = lineEnd + 1
                return line
            }
            searched = end
            if atEndOfFile {
                guard start < end else { return nil }
                let line = UnsafeBufferPointer(start: base + start, count: end - start)
                start = end
                return line
            }
            guard end - start <= Self.maximumLineLength else {
                throw TraceFormatError(
                    file: path, line: lineNumber + 1,
                    problem: "a line longer than \(Self.maximumLineLength) bytes: not a trace")
            }
            if start > 0 {
                memmove(base, base + start, end - start)
                searched -= start
                end -= start
                start = 0
            }
            var count: Int
            repeat { count = read(descriptor, base + end, storage.count - end) } while count < 0 && errno == EINTR
            guard count >= 0 else {
                throw TraceFormatError(
                    file: path, line: lineNumber + 1, problem: "read failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEndOfFile = true } else { end += count }
        }
    }
}

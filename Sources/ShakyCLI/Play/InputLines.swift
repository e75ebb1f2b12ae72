import Foundation

/// Lines of text as an asynchronous sequence, for the commands of `shaky play`.
///
/// A line ends at a line feed (Unix), a carriage return and line feed (Windows) or a carriage return alone (old Mac
/// files), so a script saved by any editor reads as its lines.
enum InputLines {
    /// The lines of standard input, read on a thread of their own until the end of input; each line is given out as
    /// soon as its end is read.
    static func standardInput() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            var splitter = LineSplitter()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for line in splitter.lines(in: buffer[..<count]) { continuation.yield(line) }
            }
            if let last = splitter.finish() { continuation.yield(last) }
            continuation.finish()
        }
        thread.start()
        return stream
    }

    /// The lines of `text`.
    static func lines(of text: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        var splitter = LineSplitter()
        for line in splitter.lines(in: text.utf8) { continuation.yield(line) }
        if let last = splitter.finish() { continuation.yield(last) }
        continuation.finish()
        return stream
    }
}

/// Cuts bytes into lines at LF, CRLF or a lone CR, as the bytes come: a CRLF split between two reads is still one
/// line end.
///
/// Splitting `String`s on `"\n"` misses CRLF, which Swift holds as one `Character`; bytes have no such trap.
struct LineSplitter: Sendable {
    private var line: [UInt8] = []
    private var afterCarriageReturn = false

    /// The lines that `bytes` completes, without their line ends; what follows the last line end is kept for later.
    mutating func lines(in bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                // The line feed of a CRLF: that line has been given out at its carriage return.
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lines.append(String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
                afterCarriageReturn = byte == UInt8(ascii: "\r")
            default:
                line.append(byte)
            }
        }
        return lines
    }

    /// The last line, when the input ended without a line end.
    mutating func finish() -> String? {
        defer { line = [] }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}

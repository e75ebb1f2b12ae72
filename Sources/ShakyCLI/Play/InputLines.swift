import Foundation
import Synchronization
import SystemCalls

/// Lines of text as an asynchronous sequence, for the commands of `shaky play`.
///
/// A line ends at a line feed (Unix), a carriage return and line feed (Windows) or a carriage return alone (old Mac
/// files), so a script saved by any editor reads as its lines.
enum InputLines {
    /// The longest line taken from standard input, in bytes: far longer than any command, and short enough that
    /// `shaky play < /dev/zero` ends at once instead of filling the memory with one line.
    static let longestLine = 64 << 10

    /// Standard input's lines, and why reading them stopped early, if it did.
    final class StandardInput: Sendable {
        /// The lines, each given out as soon as its end is read; they end with the input, or where it failed.
        let lines: AsyncStream<String>
        fileprivate let failure = Mutex<String?>(nil)

        fileprivate init(lines: AsyncStream<String>) {
            self.lines = lines
        }

        /// Why the lines ended before the end of input ("cannot read standard input: it is a folder, not a file"),
        /// once they have ended; `nil` when the input was read to its end.
        var failureReason: String? { failure.withLock { $0 } }
    }

    /// The lines of standard input, read on a thread of their own until the end of input (or a line longer than
    /// ``longestLine``, or a failure to read: what ``StandardInput/failureReason`` then says).
    static func standardInput() -> StandardInput {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let input = StandardInput(lines: stream)
        let thread = Thread {
            var splitter = LineSplitter(longestLine: longestLine)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 {
                    let reason = FileAccessError.reason(errno: errno)
                    input.failure.withLock { $0 = "cannot read standard input: \(reason)" }
                }
                guard count > 0 else { break }
                for line in splitter.lines(in: buffer[..<count]) { continuation.yield(line) }
                if splitter.isOverLong {
                    input.failure.withLock {
                        $0 =
                            "standard input: line \(splitter.lineNumber) is longer than \(longestLine >> 10) KiB, which "
                            + "no command is; play read no further"
                    }
                    continuation.finish()
                    return
                }
            }
            if let last = splitter.finish() { continuation.yield(last) }
            continuation.finish()
        }
        thread.start()
        return input
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
    /// The longest line taken, in bytes; `nil` for no limit.
    let longestLine: Int?
    /// Whether a line went beyond ``longestLine``: what came after it is not split.
    private(set) var isOverLong = false
    /// The number (from 1) of the line being read.
    private(set) var lineNumber = 1

    init(longestLine: Int? = nil) {
        self.longestLine = longestLine
    }

    /// The lines that `bytes` completes, without their line ends; what follows the last line end is kept for later.
    mutating func lines(in bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes where !isOverLong {
            if afterCarriageReturn {
                afterCarriageReturn = false
                // The line feed of a CRLF: that line has been given out at its carriage return.
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lines.append(String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
                lineNumber += 1
                afterCarriageReturn = byte == UInt8(ascii: "\r")
            default:
                if let longestLine, line.count == longestLine {
                    isOverLong = true
                    line = []
                } else {
                    line.append(byte)
                }
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

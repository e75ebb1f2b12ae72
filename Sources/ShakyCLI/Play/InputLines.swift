import Foundation

/// Lines of text as an asynchronous sequence, for the commands of `shaky play`.
enum InputLines {
    /// The lines of standard input, read on a thread of their own until the end of input.
    static func standardInput() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }

    /// The lines of `text`.
    static func lines(of text: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            continuation.yield(String(line.hasSuffix("\r") ? line.dropLast() : line))
        }
        continuation.finish()
        return stream
    }
}

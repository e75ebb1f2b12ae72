import Glibc
import ShakyCore

/// The command line's arguments as the bytes the shell passed, before Swift reads them as text.
///
/// Swift's `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD: a team name, an answer or a pack
/// typed in a Latin-1 terminal would be stored with "�" in it, which no one can type again, and a file name so
/// changed names no file. `shaky` refuses such an argument instead, and shows its bytes. It also refuses an argument
/// that holds a control character other than a line break or a tab (an escape pasted with a name), which the daemon
/// would refuse in any name, answer or reason, as a mistake on the command line.
public enum ArgumentBytes {
    /// Why this program's arguments cannot be read, or `nil` when all are UTF-8 text without control characters.
    public static func refusalOfTheCommandLine() -> String? {
        let argv = UnsafeBufferPointer(start: CommandLine.unsafeArgv, count: Int(CommandLine.argc))
        return refusal(
            argv.map { argument in
                argument.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:)) }
                    ?? []
            })
    }

    /// Why `arguments` (the program's name first) cannot be read, or `nil` when all are UTF-8 text without control
    /// characters: the first argument that is not, with its bytes that are not UTF-8 shown as `\xFF`.
    static func refusal(_ arguments: [[UInt8]]) -> String? {
        for (index, bytes) in arguments.enumerated().dropFirst() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return "argument \(index), “\(shown(bytes))”, is not UTF-8 text, which shaky needs: type it in a "
                    + "terminal whose locale is UTF-8 (`locale` shows it); a file whose name is in another encoding "
                    + "can be renamed with `convmv`"
            }
            if let problem = TerminalText.problem(in: text, allowingLineBreaks: true) {
                return "argument \(index), “\(shown(bytes))”, \(problem): type it again without it"
            }
        }
        return nil
    }

    /// `bytes` as text, each byte of what is not UTF-8 shown as `\xFF` and each control character as �; of a long
    /// argument (a question), the characters around the first of either, with "…" for what is left out.
    static func shown(_ bytes: [UInt8], around characters: Int = 30) -> String {
        var text = ""
        var firstBad: Range<Int>?
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if firstBad == nil, !TerminalText.isSafe(scalar, allowingLineBreaks: true) {
                    firstBad = text.count..<text.count + 1
                }
                text.unicodeScalars.append(scalar)
                position += encoded.count
            case .error(let length):
                let badStart = text.count
                for byte in bytes[position..<min(position + length, bytes.count)] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    text += "\\x" + (hex.count < 2 ? "0" : "") + hex
                }
                if firstBad == nil { firstBad = badStart..<text.count }
                position += length
            case .emptyInput:
                break parsing
            }
        }
        let shown = Array(text)
        let start = max(0, (firstBad?.lowerBound ?? 0) - characters)
        let end = min(shown.count, (firstBad?.upperBound ?? 0) + characters)
        let window = (start > 0 ? "…" : "") + String(shown[start..<end]) + (end < shown.count ? "…" : "")
        return TerminalText.printable(window)
    }
}

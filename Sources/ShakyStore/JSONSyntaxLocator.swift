import Foundation

/// Finds where JSON text first breaks the grammar, so an import error can name the line and column
/// (Foundation's decoder reports only that the data is not valid JSON).
struct JSONSyntaxLocator {
    /// A syntax error: 1-based line and column (in characters) and what was expected.
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var problem: String
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ data: Data) {
        bytes = Array(data)
    }

    /// The first syntax error in `data`, or nil if it is well-formed JSON.
    static func firstProblem(in data: Data) -> Problem? {
        var locator = JSONSyntaxLocator(data)
        if locator.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { locator.index = 3 }
        do throws(Problem) {
            try locator.value(depth: 0)
            locator.skipSpace()
            if locator.index < locator.bytes.count { throw locator.failure("text after the end of the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ problem: String) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        let prefix = bytes[lineStart..<min(index, bytes.count)]
        let column = String(decoding: prefix, as: UTF8.self).count + 1
        return Problem(line: line, column: column, problem: problem)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ character: Character, _ what: String) throws(Problem) {
        skipSpace()
        guard current == character.asciiValue else { throw failure("expected \(what)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Problem) {
        guard depth < 512 else { throw failure("the JSON nests too deeply") }
        skipSpace()
        guard let byte = current else { throw failure("the file ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted name") }
                try string()
                try expect(":", "“:” after a name")
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current == UInt8(ascii: "}") {
                    index += 1
                    return
                } else {
                    throw failure("expected “,” or “}” (is a comma missing?)")
                }
            }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") {
                    index += 1
                } else if current == UInt8(ascii: "]") {
                    index += 1
                    return
                } else {
                    throw failure("expected “,” or “]” (is a comma missing?)")
                }
            }
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            for word in ["true", "false", "null"] where bytes[index...].starts(with: Array(word.utf8)) {
                index += word.utf8.count
                return
            }
            throw failure("expected a value (a quoted string, a number, an object, a list, true, false or null)")
        }
    }

    private mutating func string() throws(Problem) {
        let start = index
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 2
            case 0..<0x20:
                throw failure("a line break or control character inside a string (write \\n)")
            default:
                index += 1
            }
        }
        index = start
        throw failure("a string that is never closed")
    }

    private mutating func number() throws(Problem) {
        let start = index
        let allowed = Set("+-0123456789.eE".utf8)
        while let byte = current, allowed.contains(byte) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if Double(text) == nil {
            index = start
            throw failure("“\(text)” is not a number")
        }
    }
}

extension JSONSyntaxLocator.Problem: Error {}

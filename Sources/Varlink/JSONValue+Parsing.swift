/// Why bytes are not a JSON text, and at which byte offset.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offset of the offending byte, counted from zero.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    /// Creates an error at `offset`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects accepted, so hostile input cannot exhaust the stack.
    public static let maximumNestingDepth = 128

    /// Parses one complete JSON text (RFC 8259) from UTF-8 bytes, strictly.
    ///
    /// Rejected: invalid UTF-8, trailing bytes other than whitespace, duplicate keys in an object,
    /// control characters in strings, lone surrogate escapes, numbers JSON does not allow (`01`, `1.`,
    /// `NaN`), and nesting deeper than ``maximumNestingDepth``. A number beyond `Double`'s range (`1e999`) is
    /// valid JSON and reads as an infinity, which no Varlink parameter takes and ``JSONValueDecoder`` refuses.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let buffer = Array(bytes)
        guard String(validating: buffer, as: UTF8.self) != nil else {
            throw JSONParseError(offset: Self.firstInvalidUTF8Offset(in: buffer), reason: "invalid UTF-8")
        }
        var parser = JSONParser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.isAtEnd else {
            throw JSONParseError(offset: parser.position, reason: "unexpected bytes after the JSON value")
        }
        self = value
    }

    /// Parses one complete JSON text from a string.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The offset of the first byte that is not part of a valid UTF-8 sequence.
    private static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            offset += UTF8.width(scalar)
        }
        return offset
    }
}

/// A recursive-descent JSON parser over validated UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    func fail(_ reason: String) -> JSONParseError {
        JSONParseError(offset: position, reason: reason)
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
            position += 1
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw fail("invalid literal") }
            position += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else { throw fail("nesting too deep") }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw fail("expected a string key")
            }
            let keyOffset = position
            let key = try parseString()
            guard members[key] == nil else {
                throw JSONParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            position += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            skipWhitespace()
            guard position < bytes.count else { throw fail("unexpected end of input in an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else { throw fail("nesting too deep") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            position += 1
            if byte == UInt8(ascii: "\\") {
                utf8.append(contentsOf: String(Character(try parseEscape())).utf8)
            } else {
                utf8.append(byte)
            }
        }
    }

    mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard position < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHexQuad()
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw fail("lone high surrogate") }
                position += 2
                let second = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(second) else { throw fail("invalid low surrogate") }
                let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(first) else { throw fail("lone low surrogate") }
            return scalar
        default:
            position -= 1
            throw fail("invalid escape")
        }
    }

    mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw fail("unterminated \\u escape") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("expected a digit") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw fail("leading zero in a number") }
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("expected a digit after '.'") }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("expected an exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let number = Int(text) {
            return .int(number)
        }
        guard let number = Double(text) else { throw JSONParseError(offset: start, reason: "not a number") }
        // Beyond Double's range (`1e999`) it is an infinity: still valid JSON, which a Varlink call answers with
        // InvalidParameter (no parameter takes it) rather than dropping the connection as if it were not JSON.
        // An integer just below Int.min rounds to exactly Int.min as a Double, and would then pass for an int: keep
        // it out of Int's range so that an int parameter refuses it.
        if isInteger, number == Double(Int.min) { return .double(number.nextDown) }
        return .double(number)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
}

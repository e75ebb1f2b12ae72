/// A value that writes its own compact JSON text, with no tree and no `Encoder` in between.
///
/// The Varlink code generator makes every wire type one, so a reply is encoded once, straight to the bytes
/// that go on the wire. Object members are written in ascending key order, as ``JSONValue/serializedBytes()``
/// writes them, so both give the same bytes for the same value.
public protocol JSONWritable {
    /// Appends this value's JSON text to `writer`.
    func writeJSON(to writer: inout JSONWriter)
}

/// Compact JSON text as UTF-8, appended value by value.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.writeMember("name", "Owls")
/// writer.writeOptionalMember("score", score)   // left out when nil
/// writer.endObject()
/// ```
///
/// The text never contains a NUL byte (NUL in a string is written `\u0000`), so it can be framed by NUL as
/// Varlink requires. Non-finite doubles, which JSON cannot express, are written `null`.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Starts an object.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
    }

    /// Ends the object started last.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an array.
    public mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
    }

    /// Ends the array started last.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes the separator before a member or element unless it is the first of its object or array.
    private mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// Writes `"key":` and `value` as the next member of the current object.
    public mutating func writeMember(_ key: String, _ value: some JSONWritable) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        value.writeJSON(to: &self)
    }

    /// Writes `"key":` and JSON text that is already encoded.
    mutating func writeMember(_ key: String, rawJSON: [UInt8]) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: rawJSON)
    }

    /// Writes the member when `value` is not `nil`; leaves it out otherwise (as `encodeIfPresent` does).
    public mutating func writeOptionalMember(_ key: String, _ value: (some JSONWritable)?) {
        if let value { writeMember(key, value) }
    }

    /// Writes `value` as the next element of the current array.
    public mutating func writeElement(_ value: some JSONWritable) {
        separate()
        value.writeJSON(to: &self)
    }

    /// Writes `null`.
    public mutating func writeNull() {
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes `true` or `false`.
    public mutating func writeBool(_ flag: Bool) {
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// Writes an integer.
    public mutating func writeInt(_ number: Int) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Writes a number as `JSONEncoder` writes a `Double`: its shortest form, a whole number without a fraction
    /// (`15`, `0.25`, `1e-05`), or `null` when it is not finite.
    public mutating func writeDouble(_ number: Double) {
        guard number.isFinite else { return writeNull() }
        let text = "\(number)"
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// Writes a number keeping the fraction of a whole one (`15.0`), as a parsed float is written back, or
    /// `null` when it is not finite.
    mutating func writeDoubleKeepingFraction(_ number: Double) {
        bytes.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
    }

    /// Writes a string, escaping what JSON requires (quote, backslash, control characters).
    public mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension Bool: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.writeBool(self) }
}

extension Int: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.writeInt(self) }
}

extension Double: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.writeDouble(self) }
}

extension String: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.writeString(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    /// Writes the value, or `null`.
    public func writeJSON(to writer: inout JSONWriter) {
        if let self { self.writeJSON(to: &writer) } else { writer.writeNull() }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginArray()
        for element in self { writer.writeElement(element) }
        writer.endArray()
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    /// Writes the object with its keys in ascending order.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        for key in keys.sorted() {
            if let value = self[key] { writer.writeMember(key, value) }
        }
        writer.endObject()
    }
}

extension JSONValue: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.writeNull()
        case .bool(let flag): writer.writeBool(flag)
        case .int(let number): writer.writeInt(number)
        case .double(let number): writer.writeDoubleKeepingFraction(number)
        case .string(let text): writer.writeString(text)
        case .array(let elements): elements.writeJSON(to: &writer)
        case .object(let members): members.writeJSON(to: &writer)
        }
    }
}

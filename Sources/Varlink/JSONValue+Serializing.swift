extension JSONValue {
    /// The compact JSON text of this value as UTF-8, object keys sorted so the output is deterministic.
    ///
    /// The output never contains a NUL byte (NUL in a string is written `\u0000`), so it can be framed
    /// by NUL as Varlink requires. Non-finite doubles, which JSON cannot express, are written `null`.
    public func serializedBytes() -> [UInt8] {
        var output: [UInt8] = []
        append(to: &output)
        return output
    }

    /// The compact JSON text of this value, object keys sorted.
    public var serialized: String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    private func append(to output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .double(let number):
            output.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text):
            Self.appendString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.append(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.append(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func appendString(_ text: String, to output: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

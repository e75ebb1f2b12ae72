import Testing
import Varlink

@Suite("JSONValue parsing and serializing")
struct JSONValueTests {
    @Test("Parses every kind of value, keeping ints and floats apart")
    func parsesValues() throws {
        let value = try JSONValue(
            parsing:
                #" {"a": [1, -2, 3.5, 1e3, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} "#)
        #expect(
            value == [
                "a": [1, -2, 3.5, 1000.0, true, false, nil],
                "s": "x\"\\/\u{08}\u{0C}\n\r\té😀",
                "o": [:],
            ])
        #expect(try JSONValue(parsing: "1.0") == .double(1))
        #expect(try JSONValue(parsing: "-0") == .int(0))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808))
        // Valid JSON beyond any Double: an infinity, which no parameter takes.
        #expect(try JSONValue(parsing: "1e400") == .double(.infinity))
        #expect(try JSONValue(parsing: "-1E+999") == .double(-.infinity))
        #expect(try JSONValue(parsing: "1e-999") == .double(0))
    }

    @Test(
        "Rejects what RFC 8259 does not allow",
        arguments: [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "NaN", "Infinity", "1e", "tru", "nul",
            "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"a\tb\"", "{\"a\" 1}", "{1:2}", "[1 2]", "1 2", "'a'",
            "{\"a\":1,\"a\":2}",
        ])
    func rejectsInvalidJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("Rejects invalid UTF-8 and names the offset")
    func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError(offset: 3, reason: "invalid UTF-8")) {
            try JSONValue(parsing: [UInt8(ascii: "\""), 0x41, 0x42, 0xFF, UInt8(ascii: "\"")])
        }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [UInt8(ascii: "\""), 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test("Refuses nesting deeper than the limit instead of exhausting the stack")
    func limitsNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let limit = JSONValue.maximumNestingDepth
        let fine = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONValue(parsing: fine) }
    }

    @Test("Serializes compactly with sorted keys, escaping what JSON needs and never writing NUL")
    func serializes() throws {
        let value: JSONValue = ["b": [1, 2.5, nil, false], "a": "q\"\\\n\u{0}\u{1F}é"]
        #expect(value.serialized == #"{"a":"q\"\\\n\u0000\u001fé","b":[1,2.5,null,false]}"#)
        #expect(!value.serializedBytes().contains(0))
        #expect(try JSONValue(parsing: value.serializedBytes()) == value)
    }

    @Test("Converts from Encodable and to Decodable values")
    func codable() throws {
        struct Team: Codable, Equatable {
            var name: String
            var score: Int
            var captain: String?
        }
        let team = Team(name: "Owls", score: 3, captain: nil)
        let value = try JSONValue(encoding: team)
        #expect(value == ["name": "Owls", "score": 3])
        #expect(try value.decode(as: Team.self) == team)
        #expect(try JSONValue(parsing: try JSONValue(encoding: value).serialized) == value)
    }
}

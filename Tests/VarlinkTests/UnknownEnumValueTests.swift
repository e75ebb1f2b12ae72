import Testing
import Varlink

@Suite("A value a Varlink enum does not list: absent in a reply's optional field, an error elsewhere")
struct UnknownEnumValueTests {
    /// As the generator writes an enum.
    enum Size: String, Codable, Equatable, Sendable, CaseIterable, VarlinkEnum {
        case small, large

        init(from decoder: any Decoder) throws {
            self = try Self.decodeValue(from: decoder)
        }
    }

    struct Part: Codable, Equatable {
        var size: Size
    }

    struct Thing: Codable, Equatable {
        var size: Size
        var shade: Size?
        var part: Part?
        var parts: [Part]?
        var note: String?
    }

    static let known: JSONValue = ["size": "small", "shade": "large", "part": ["size": "large"], "parts": []]

    static func thing(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = known else { return known }
        members[key] = value
        return .object(members)
    }

    @Test("Known values decode with either decoder, strict or for replies")
    func knownValues() throws {
        let expected = Thing(size: .small, shade: .large, part: Part(size: .large), parts: [], note: nil)
        #expect(try JSONValueDecoder().decode(Thing.self, from: Self.known) == expected)
        #expect(try JSONValueDecoder.forReplies.decode(Thing.self, from: Self.known) == expected)
    }

    @Test("In a reply, an optional enum field with an unknown value reads as absent, the rest as sent")
    func optionalFieldInAReply() throws {
        let thing = try JSONValueDecoder.forReplies.decode(Thing.self, from: Self.thing("shade", "purple"))
        #expect(thing == Thing(size: .small, shade: nil, part: Part(size: .large), parts: [], note: nil))
    }

    @Test(
        "In a reply, an unknown value anywhere but an optional enum field is VarlinkUnknownEnumValue with its field",
        arguments: [
            ("size", "huge", "size", ["size"]),
            // An optional struct is not an optional enum: its required member still fails, and so the whole reply.
            ("part", ["size": "huge"], "part.size", ["part", "size"]),
            ("parts", [["size": "small"], ["size": "huge"]], "parts.size", ["parts", "1", "size"]),
        ] as [(String, JSONValue, String, [String])])
    func elsewhereInAReply(key: String, value: JSONValue, field: String, codingPath: [String]) {
        let error = #expect(throws: VarlinkUnknownEnumValue.self) {
            try JSONValueDecoder.forReplies.decode(Thing.self, from: Self.thing(key, value))
        }
        #expect(error?.value == "huge")
        #expect(error?.knownValues == ["small", "large"])
        #expect(error?.field == field)
        #expect(error?.codingPath == codingPath)
        #expect(error?.description == "\(field): “huge” is none of small, large")
    }

    @Test("A wrong type in an optional enum field is still a DecodingError, in a reply too")
    func wrongTypeIsNoUnknownValue() {
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder.forReplies.decode(Thing.self, from: Self.thing("shade", 3))
        }
    }

    @Test("Decoding a call's parameters stays strict: an unknown value, even in an optional field, is refused")
    func callsAreStrict() {
        #expect(throws: VarlinkUnknownEnumValue.self) {
            try JSONValueDecoder().decode(Thing.self, from: Self.thing("shade", "purple"))
        }
        for (key, value, parameter) in [
            ("shade", JSONValue.string("purple"), "shade"), ("parts", [["size": "purple"]], "parts.0.size"),
        ] {
            guard case .object(let parameters) = Self.thing(key, value) else { return }
            let request = VarlinkRequest(
                call: VarlinkCall(method: "a.b.Put", parameters: parameters), peer: .currentProcess)
            #expect(throws: VarlinkReplyError.invalidParameter(parameter)) {
                try request.decodeParameters(as: Thing.self)
            }
        }
    }
}

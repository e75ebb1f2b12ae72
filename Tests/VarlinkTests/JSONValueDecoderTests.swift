import Foundation
import Testing
import Varlink

@Suite("Decoding straight from the parsed tree")
struct JSONValueDecoderTests {
    struct Team: Codable, Equatable {
        var name: String
        var score: Int
        var ratio: Double
        var note: String?
        var tags: [String]
        var labels: [String: Int]
        var extra: JSONValue
        var point: Point?
    }

    struct Point: Codable, Equatable {
        var x: Int
        var y: Int
    }

    @Test("Every field type decodes from the tree as JSONDecoder decodes it from the text")
    func sameAsJSONDecoder() throws {
        let text = #"""
            {"name":"Owls","score":3,"ratio":0.25,"tags":["a","b"],"labels":{"x":1},"extra":{"any":[1,null]},
             "point":{"x":1,"y":-2}}
            """#
        let tree = try JSONValue(parsing: text)
        let decoded = try JSONValueDecoder().decode(Team.self, from: tree)
        #expect(decoded == (try JSONDecoder().decode(Team.self, from: Data(text.utf8))))
        #expect(decoded.note == nil)
        #expect(decoded.extra == ["any": [1, nil]])
        #expect(decoded.point == Point(x: 1, y: -2))
    }

    @Test("null and an absent key are both nil for an optional; a float with no fraction is an int")
    func nullAndNumbers() throws {
        let tree: JSONValue = [
            "name": "Owls", "score": .double(3.0), "ratio": 1, "note": nil, "tags": [], "labels": [:],
            "extra": nil, "point": nil,
        ]
        let decoded = try tree.decode(as: Team.self)
        #expect(decoded.score == 3)
        #expect(decoded.ratio == 1.0)
        #expect(decoded.note == nil)
        #expect(decoded.point == nil)
        #expect(decoded.extra == .null)
    }

    @Test("A failure names the path of the offending value")
    func failurePaths() throws {
        let wrongType: JSONValue = [
            "name": "Owls", "score": 1, "ratio": 1, "tags": ["a", 2], "labels": [:], "extra": nil,
        ]
        #expect {
            try wrongType.decode(as: Team.self)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["tags", "1"]
        }
        let missing: JSONValue = ["name": "Owls", "ratio": 1, "tags": [], "labels": [:], "extra": nil]
        #expect {
            try missing.decode(as: Team.self)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "score"
        }
        let fraction: JSONValue = [
            "name": "Owls", "score": 1.5, "ratio": 1, "tags": [], "labels": [:], "extra": nil,
        ]
        #expect(throws: DecodingError.self) { try fraction.decode(as: Team.self) }
        #expect(throws: DecodingError.self) { try JSONValue.int(300).decode(as: UInt8.self) }
    }

    @Test(
        "An integer past Int's range is refused for an int, even one that rounds to Int.min; -0 reads as 0; 1e999 is refused"
    )
    func numbersAtTheEdges() throws {
        #expect(try JSONValue(parsing: "-9223372036854775808").decode(as: Int.self) == Int.min)
        for text in ["-9223372036854775809", "9223372036854775808", "-99999999999999999999"] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONValue(parsing: text).decode(as: Int.self) }
        }
        let zero = try JSONValue(parsing: "-0.0").decode(as: Double.self)
        #expect(zero == 0 && zero.sign == .plus)
        // Beyond any Double: refused for a float and for an int.
        for text in ["1e999", "-1e999"] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONValue(parsing: text).decode(as: Double.self) }
            #expect(throws: DecodingError.self, "\(text)") { try JSONValue(parsing: text).decode(as: Int.self) }
        }
    }

    @Test("A request's parameters decode from the call's tree; a stricter Swift type answers InvalidParameter")
    func requestParameters() throws {
        struct Limited: Decodable {
            var value: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                value = try container.decode(Int.self, forKey: .value)
                guard value >= 0 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .value, in: container, debugDescription: "negative")
                }
            }
            enum CodingKeys: String, CodingKey { case value }
        }
        let good = VarlinkRequest(call: VarlinkCall(method: "a.b.C", parameters: ["value": 2]), peer: .currentProcess)
        #expect(try good.decodeParameters(as: Limited.self).value == 2)
        let bad = VarlinkRequest(call: VarlinkCall(method: "a.b.C", parameters: ["value": -1]), peer: .currentProcess)
        #expect(throws: VarlinkReplyError.invalidParameter("value")) { try bad.decodeParameters(as: Limited.self) }
    }
}

import Foundation
import NIOCore
import Testing

@testable import Varlink

@Suite("Encoding replies once, straight to bytes")
struct JSONWriterTests {
    /// A hand-written writer, shaped like the generated ones.
    struct Score: Encodable, JSONWritable {
        var team: String
        var points: Int
        var ratio: Double
        var note: String?
        var history: [Int]

        func writeJSON(to writer: inout JSONWriter) {
            writer.beginObject()
            writer.writeMember("history", history)
            writer.writeOptionalMember("note", note)
            writer.writeMember("points", points)
            writer.writeMember("ratio", ratio)
            writer.writeMember("team", team)
            writer.endObject()
        }
    }

    @Test("The writer gives the bytes the tree's serializer gives, escapes included")
    func sameBytesAsTheTree() throws {
        let score = Score(team: "Owls \"A\"\n\u{0}é", points: -3, ratio: 0.25, note: nil, history: [1, 2])
        var writer = JSONWriter()
        score.writeJSON(to: &writer)
        let tree: JSONValue = ["history": [1, 2], "points": -3, "ratio": 0.25, "team": "Owls \"A\"\n\u{0}é"]
        #expect(writer.bytes == tree.serializedBytes())
        #expect(!writer.bytes.contains(0))
        #expect(try JSONValue(parsing: writer.bytes) == tree)
    }

    @Test("A Double is written as JSONEncoder writes it; a parsed float keeps its fraction")
    func doubles() throws {
        func written(_ value: some JSONWritable) -> String {
            var writer = JSONWriter()
            value.writeJSON(to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        for number in [15.0, 0.25, -3.5, 1e-5, 1e300, 0] {
            let encoded = String(decoding: try JSONEncoder().encode(number), as: UTF8.self)
            #expect(written(number) == encoded)
        }
        #expect(written(15.0) == "15")
        #expect(written(Double.nan) == "null")
        #expect(written(JSONValue.double(15.0)) == "15.0")
    }

    @Test("A JSONWritable reply is encoded by its writer, not through an Encoder")
    func encodedParametersUseTheWriter() throws {
        /// Encodes differently through `Encodable`, so the test sees which path ran.
        struct Marked: Encodable, JSONWritable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(["path": "encoder"])
            }
            func writeJSON(to writer: inout JSONWriter) {
                writer.beginObject()
                writer.writeMember("path", "writer")
                writer.endObject()
            }
        }
        #expect(try VarlinkEncodedParameters(encoding: Marked()).object() == ["path": "writer"])
        #expect(try VarlinkStreamReply(encoding: Marked(), continues: true).parameters == ["path": "writer"])
        struct Plain: Encodable { var path = "encoder" }
        #expect(try VarlinkEncodedParameters(encoding: Plain()).object() == ["path": "encoder"])
        #expect(throws: VarlinkProtocolViolation.self) { try VarlinkEncodedParameters(encoding: 42) }
    }

    @Test("A reply message wraps the encoded parameters as the tree form writes it")
    func replyMessage() throws {
        let parameters = VarlinkEncodedParameters(["value": 1, "name": "x"])
        for reply in [
            VarlinkEncodedReply(parameters: parameters),
            VarlinkEncodedReply(parameters: parameters, continues: true),
            VarlinkEncodedReply(parameters: parameters, error: "a.b.Failed"),
        ] {
            let tree = try VarlinkReply(reply)
            #expect(reply.messageBytes == tree.jsonValue.serializedBytes())
            let frame = ByteBuffer.varlinkFrame(reply, allocator: ByteBufferAllocator())
            #expect(Array(frame.readableBytesView) == reply.messageBytes + [0], "the frame on the wire")
        }
    }
}

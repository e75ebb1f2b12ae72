import Testing
import Varlink

@Suite("Varlink call and reply codec")
struct VarlinkMessageTests {
    @Test("Parses a call with its flags; absent parameters mean empty")
    func parsesCall() throws {
        let call = try VarlinkCall(
            frame: Array(#"{"method":"a.b.C","parameters":{"x":1},"more":true,"oneway":false,"a.b":1}"#.utf8))
        #expect(call == VarlinkCall(method: "a.b.C", parameters: ["x": 1], more: true))
        #expect(call.interfaceName == "a.b")
        #expect(call.memberName == "C")
        #expect(try VarlinkCall(frame: Array(#"{"method":"a.b.C"}"#.utf8)).parameters == [:])
    }

    @Test("\"parameters\": null means no parameters, as in the reference implementations")
    func nullParametersAreEmpty() throws {
        let call = try VarlinkCall(frame: Array(#"{"method":"a.b.C","parameters":null,"more":true}"#.utf8))
        #expect(call == VarlinkCall(method: "a.b.C", parameters: [:], more: true))
    }

    @Test(
        "Rejects malformed calls with a reason",
        arguments: [
            (#"[]"#, "a call must be a JSON object, not array"),
            (#"{}"#, "a call has no \"method\""),
            (#"{"method":1}"#, "\"method\" must be a string, not int"),
            (#"{"method":"a.B","x":1}"#, "unknown key \"x\" in a call"),
            (#"{"method":"a.B","more":1}"#, "\"more\" must be a bool, not int"),
            (#"{"method":"a.B","oneway":"true"}"#, "\"oneway\" must be a bool, not string"),
            (#"{"method":"a.B","upgrade":{}}"#, "\"upgrade\" must be a bool, not object"),
            (#"{"method":"a.B","more":true,"oneway":true}"#, "\"oneway\" and \"more\" exclude each other"),
            (#"{"method":"a.B","parameters":[]}"#, "\"parameters\" must be an object, not array"),
        ])
    func rejectsCall(text: String, reason: String) {
        #expect(throws: VarlinkProtocolViolation(reason)) { try VarlinkCall(frame: Array(text.utf8)) }
    }

    @Test("Writes calls and replies in wire form and reads replies back")
    func roundTrips() throws {
        #expect(
            VarlinkCall(method: "a.b.C", parameters: ["x": 1], oneway: true).jsonValue.serialized
                == #"{"method":"a.b.C","oneway":true,"parameters":{"x":1}}"#)
        let replies = [
            VarlinkReply(parameters: ["v": 1], continues: true),
            VarlinkReply(parameters: [:]),
            VarlinkReply.error("a.b.Failed", parameters: ["why": "x"]),
        ]
        #expect(
            replies.map(\.jsonValue.serialized) == [
                #"{"continues":true,"parameters":{"v":1}}"#, #"{"parameters":{}}"#,
                #"{"error":"a.b.Failed","parameters":{"why":"x"}}"#,
            ])
        for reply in replies {
            #expect(try VarlinkReply(frame: reply.jsonValue.serializedBytes()) == reply)
        }
        #expect(throws: VarlinkProtocolViolation.self) { try VarlinkReply(frame: Array(#"{"continues":1}"#.utf8)) }
    }
}

import ShakyProtocol
import Testing
import Varlink

/// Whatever a daemon sends, nothing raw reaches the client's terminal.
@Suite("Printable replies")
struct PrintableReplyTests {
    @Test func everyStringIsMadePrintable() {
        let reply: JSONValue = [
            "teams": [["name": "\u{202E}evil\u{1B}[31m", "score": 1]], "question": "Line\none", "pattern": nil,
        ]
        #expect(
            reply.printable
                == [
                    "teams": [["name": "\u{FFFD}evil\u{FFFD}[31m", "score": 1]], "question": "Line\none",
                    "pattern": nil,
                ]
        )
        #expect(reply.firstUnsafeString(multiLine: ["question"]) == "teams[0].name")
        #expect(JSONValue.object(["text": "a\nb"]).firstUnsafeString(multiLine: ["text"]) == nil)
        #expect(JSONValue.object(["data": "\u{0}"]).firstUnsafeString(unchecked: ["data"]) == nil)
    }

    @Test func errorMessagesArePrintable() {
        let error = ShakyClientError(
            .remote(name: "io.shakywords.Game.Refused", parameters: ["message": "no team called \u{1B}[2J"]),
            path: "/x")
        #expect(!"\(error)".contains("\u{1B}"))
        #expect("\(error)".contains("\u{FFFD}[2J"))
    }
}

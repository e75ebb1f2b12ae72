import Testing

@testable import Varlink

@Suite("Replies are checked against the interface in debug builds")
struct ReplyCheckTests {
    static let description = """
        interface org.example.Checked

        method Get() -> (count: int, name: ?string)

        error Failed (reason: string)
        """

    static func service(reply: VarlinkObject) throws -> VarlinkService {
        let interface = try VarlinkInterface(description: description, methods: ["Get": .reply { _ in reply }])
        return try VarlinkService(vendor: "v", product: "p", version: "1", url: "u", interfaces: [interface])
    }

    static let get = VarlinkCall(method: "org.example.Checked.Get")

    @Test("A reply that matches the interface is sent as it was written")
    func matchingReply() async throws {
        let service = try Self.service(reply: ["count": 2])
        var replies: [VarlinkEncodedReply] = []
        try await service.respond(to: Self.get, from: .currentProcess) { replies.append($0) }
        #expect(replies.map { String(decoding: $0.messageBytes, as: UTF8.self) } == [#"{"parameters":{"count":2}}"#])
        #expect(service.checksReplies, "on by default, so every test's replies are checked")
    }

    @Test("A reply or an error that breaks the interface is named with the offending path or error")
    func mismatches() throws {
        let service = try Self.service(reply: [:])
        let wrongType = VarlinkEncodedReply(parameters: VarlinkEncodedParameters(["count": "two"]))
        #expect(
            service.interfaceMismatch(of: wrongType, to: Self.get)
                == #"the reply of org.example.Checked.Get does not match the interface at "count": {"count":"two"}"#)
        let unknownField = VarlinkEncodedReply(parameters: VarlinkEncodedParameters(["count": 1, "extra": true]))
        #expect(service.interfaceMismatch(of: unknownField, to: Self.get)?.contains(#"at "extra""#) == true)
        let optionalLeftOut = VarlinkEncodedReply(parameters: VarlinkEncodedParameters(["count": 1]))
        #expect(service.interfaceMismatch(of: optionalLeftOut, to: Self.get) == nil)
        let undeclaredError = VarlinkEncodedReply(
            parameters: VarlinkEncodedParameters([:]), error: "org.example.Checked.Failed")
        #expect(service.interfaceMismatch(of: undeclaredError, to: Self.get)?.contains(#"at "reason""#) == true)
        // org.varlink.service's errors answer any interface's calls; they are not this interface's to check.
        let serviceError = VarlinkEncodedReply(
            parameters: VarlinkEncodedParameters(["parameter": "x"]), error: "org.varlink.service.InvalidParameter")
        #expect(service.interfaceMismatch(of: serviceError, to: Self.get) == nil)
        // Any other interface's error, or one the interface does not declare, is not the client's to expect.
        for name in ["org.example.Other.Failed", "org.example.Checked.Unknown"] {
            let foreignError = VarlinkEncodedReply(parameters: VarlinkEncodedParameters([:]), error: name)
            #expect(
                service.interfaceMismatch(of: foreignError, to: Self.get)
                    == "\(name) is not an error of org.example.Checked, which org.example.Checked.Get belongs to")
        }
    }
}

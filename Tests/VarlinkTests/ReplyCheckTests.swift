import Testing
import Varlink

@Suite("Replies are checked against the interface in debug builds")
struct ReplyCheckTests {
    static let description = """
        interface org.example.Checked

        method Get() -> (count: int, name: ?string)

        error Failed (reason: string)
        """

    static func service(reply: VarlinkObject) throws -> VarlinkService {
        let interface = try VarlinkInterface(
            description: description,
            methods: ["Get": .reply { _ in reply }])
        return try VarlinkService(vendor: "v", product: "p", version: "1", url: "u", interfaces: [interface])
    }

    @Test("A reply that matches the interface is sent")
    func matchingReply() async throws {
        let service = try Self.service(reply: ["count": 2])
        var replies: [VarlinkEncodedReply] = []
        try await service.respond(to: VarlinkCall(method: "org.example.Checked.Get"), from: .currentProcess) {
            replies.append($0)
        }
        #expect(replies.map { String(decoding: $0.messageBytes, as: UTF8.self) } == [#"{"parameters":{"count":2}}"#])
    }

    #if DEBUG
        @Test("A reply with a wrongly typed field stops a debug build")
        func mismatchedReplyStops() async {
            await #expect(processExitsWith: .failure) {
                let service = try ReplyCheckTests.service(reply: ["count": "two"])
                try await service.respond(to: VarlinkCall(method: "org.example.Checked.Get"), from: .currentProcess) {
                    _ in
                }
            }
        }

        @Test("An error of the interface with undeclared parameters stops a debug build")
        func mismatchedErrorStops() async {
            await #expect(processExitsWith: .failure) {
                let interface = try VarlinkInterface(
                    description: ReplyCheckTests.description,
                    methods: ["Get": .reply { _ in throw VarlinkReplyError("org.example.Checked.Failed") }])
                let service = try VarlinkService(
                    vendor: "v", product: "p", version: "1", url: "u", interfaces: [interface])
                try await service.respond(to: VarlinkCall(method: "org.example.Checked.Get"), from: .currentProcess) {
                    _ in
                }
            }
        }
    #endif
}

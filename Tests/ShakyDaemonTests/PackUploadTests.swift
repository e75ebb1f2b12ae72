import ShakyTesting
import Testing
import Varlink

@testable import ShakyProtocol

/// A pack file too large for one message, sent in parts (`BeginUpload`, `UploadPart`, `ImportUpload`).
@Suite("Pack uploads over the interface")
struct PackUploadTests {
    typealias API = ShakyAPI

    /// A CSV file of `count` questions.
    static func csv(_ count: Int) -> String {
        "question,answer,difficulty,alternates\n"
            + (0..<count).map { "Question \($0) with “quotes” and ü and 🦊?,Answer,easy,\n" }.joined()
    }

    /// Begins an upload of `text` and sends it in parts of `partLength` bytes; returns the upload.
    static func send(_ text: String, in partLength: Int, with client: TestDaemonClient) async throws -> String {
        let begun = try await client.call(
            "io.shakywords.Packs.BeginUpload", ["size": .int(text.utf8.count)],
            as: API.PacksInterface.BeginUploadReply.self)
        #expect(begun.limit == 16 << 20)
        var offset = 0
        for part in ShakyClient.parts(of: text, maximumLength: partLength) {
            let reply = try await client.call(
                "io.shakywords.Packs.UploadPart",
                ["upload": .string(begun.upload), "offset": .int(offset), "data": .string(part)],
                as: API.PacksInterface.UploadPartReply.self)
            #expect(reply.received == offset + part.utf8.count)
            offset = reply.received
        }
        return begun.upload
    }

    @Test(
        "A file sent in parts imports whole, with the reply and errors of Import", arguments: TestDaemon.Mode.allCases)
    func partsImportAsOne(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            let text = Self.csv(300)
            // Parts cut inside multi-byte letters and emoji still join to the same text.
            let upload = try await Self.send(text, in: 1000, with: client)
            let imported = try await client.call(
                "io.shakywords.Packs.ImportUpload", ["upload": .string(upload), "format": "csv", "name": "Parts"],
                as: API.PacksInterface.ImportUploadReply.self)
            #expect(imported.pack.questions == 300)
            let shown = try await client.call(
                "io.shakywords.Packs.Show", ["name": "Parts"], as: API.PacksInterface.ShowReply.self)
            #expect(shown.questions.last?.text == "Question 299 with “quotes” and ü and 🦊?")
            // Imported, the upload is gone.
            let again = try await client.callError(
                "io.shakywords.Packs.ImportUpload", ["upload": .string(upload), "format": "csv", "name": "Parts 2"])
            #expect(again.name == "io.shakywords.Packs.UploadNotFound")

            let bad = try await Self.send(text + "one field\n" + "too,many,fields,here,now\n", in: 4096, with: client)
            let failed = try await client.callError(
                "io.shakywords.Packs.ImportUpload", ["upload": .string(bad), "format": "csv", "name": "Bad"])
            #expect(failed.name == "io.shakywords.Packs.ImportFailed")
            #expect(failed.parameters["line"]?.intValue == 302)
            // Both bad lines, each with its own line, in the list a client shows.
            let problems = failed.parameters["problems"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(problems.compactMap { $0["line"]?.intValue } == [302, 303], "\(failed.parameters)")
            #expect(
                problems.last?["problem"]?.stringValue == "expected 4 fields like the header, found 5",
                "\(failed.parameters)")
            #expect(failed.parameters["unlisted"] == nil)
        }
    }

    private static func refusal(
        _ method: String, _ parameters: VarlinkObject, _ client: TestDaemonClient
    ) async throws -> (name: String, message: String) {
        let error = try await client.callError("io.shakywords.Packs." + method, parameters)
        return (
            String(error.name.split(separator: ".").last ?? ""),
            error.parameters["message"]?.stringValue ?? error.parameters["upload"]?.stringValue ?? ""
        )
    }

    @Test func anUploadKeepsToItsSizeItsOrderAndItsUser() async throws {
        try await TestDaemon.run(.inProcess) { client in
            let tooLarge = try await Self.refusal("BeginUpload", ["size": .int(17 << 20)], client)
            #expect(tooLarge.name == "UploadRefused")
            #expect(tooLarge.message.contains("17.0 MiB") && tooLarge.message.contains("16 MiB"), "\(tooLarge)")
            // A byte over is not said as the limit itself ("16.0 MiB; … up to 16 MiB").
            let byteOver = try await Self.refusal("BeginUpload", ["size": .int((16 << 20) + 1)], client)
            #expect(byteOver.message.hasPrefix("the file is 16.1 MiB;"), "\(byteOver)")
            #expect(try await Self.refusal("BeginUpload", ["size": 0], client).message == "the file is empty")
            let negative = try await Self.refusal("BeginUpload", ["size": -1], client)
            #expect(negative.name == "UploadRefused")
            #expect(negative.message == "the size -1 is negative: give the file's size in bytes", "\(negative)")

            let upload = try await client.call(
                "io.shakywords.Packs.BeginUpload", ["size": 10], as: API.PacksInterface.BeginUploadReply.self
            ).upload
            let outOfOrder = try await Self.refusal(
                "UploadPart", ["upload": .string(upload), "offset": 4, "data": "abcd"], client)
            #expect(outOfOrder.name == "UploadRefused")
            #expect(outOfOrder.message.contains("out of order"))

            let stranger = client.calling(as: VarlinkPeerCredentials(uid: 4242, gid: 4242, pid: 1))
            let notTheirs = try await Self.refusal(
                "UploadPart", ["upload": .string(upload), "offset": 0, "data": "abcd"], stranger)
            #expect(notTheirs.name == "UploadNotFound")

            _ = try await client.call(
                "io.shakywords.Packs.UploadPart", ["upload": .string(upload), "offset": 0, "data": "abcd"])
            let early = try await Self.refusal(
                "ImportUpload", ["upload": .string(upload), "format": "csv", "name": "Early"], client)
            #expect(early.name == "UploadRefused")
            #expect(early.message.contains("only 4 of the 10 bytes"), "\(early)")

            let overflow = try await Self.refusal(
                "UploadPart", ["upload": .string(upload), "offset": 4, "data": "efghijklmn"], client)
            #expect(overflow.name == "UploadRefused")
            let dropped = try await Self.refusal(
                "UploadPart", ["upload": .string(upload), "offset": 4, "data": "ef"], client)
            #expect(dropped.name == "UploadNotFound", "a part over the size announced drops the upload")
        }
    }

    @Test func beginningAFifthUploadDropsTheOneLeastRecentlySentTo() async throws {
        try await TestDaemon.run(.inProcess) { client in
            var uploads: [String] = []
            for _ in 0..<4 {
                uploads.append(
                    try await client.call(
                        "io.shakywords.Packs.BeginUpload", ["size": 8], as: API.PacksInterface.BeginUploadReply.self
                    ).upload)
            }
            // The first is sent to last, so the second is the least recently used.
            _ = try await client.call(
                "io.shakywords.Packs.UploadPart", ["upload": .string(uploads[0]), "offset": 0, "data": "ab"])
            _ = try await client.call("io.shakywords.Packs.BeginUpload", ["size": 8])
            let second = try await Self.refusal(
                "UploadPart", ["upload": .string(uploads[1]), "offset": 0, "data": "ab"], client)
            #expect(second.name == "UploadNotFound")
            for kept in [uploads[0], uploads[2], uploads[3]] {
                let offset = kept == uploads[0] ? 2 : 0
                _ = try await client.call(
                    "io.shakywords.Packs.UploadPart", ["upload": .string(kept), "offset": .int(offset), "data": "cd"])
            }
        }
    }
}

import ShakyTesting
import Testing
import Varlink

/// The daemon's calls whose replies can be megabytes wait while clients leave replies unread, so that clients asking
/// for exports and never reading them cannot take its memory; the game goes on meanwhile.
@Suite("Unread replies")
struct UnreadReplyTests {
    /// A pack of 6000 questions: its export (some 600 KB) is more than a socket's buffer takes.
    static let bigPack: String = {
        var csv = "question,answer\n"
        for number in 1...6000 { csv += "Which number comes after \(number - 1) in counting?,number \(number)\n" }
        return csv
    }()

    @Test("Exports, shows and searches asked for while replies wait unread wait their turn; the game answers at once")
    func largeRepliesWaitTheirTurn() async throws {
        let backlog = VarlinkReplyBacklog(bound: 64 << 10)
        try await TestDaemon.run(.socket, replyBacklog: backlog) { client in
            _ = try await client.call(
                "io.shakywords.Packs.Import", ["data": .string(Self.bigPack), "format": "csv", "name": "Counting"])
            let calls = [
                #"{"method":"io.shakywords.Packs.Export","parameters":{"name":"Counting","format":"json"}}"#,
                #"{"method":"io.shakywords.Packs.Show","parameters":{"name":"Counting"}}"#,
                #"{"method":"io.shakywords.Packs.Search","parameters":{"text":"number","limit":10000}}"#,
            ]
            var sockets: [RawSocket] = []
            for call in calls {
                let socket = try RawSocket(path: client.socketPath)
                #expect(await socket.send(call))
                sockets.append(socket)
            }
            // One reply is made and left unread, the two others wait; the daemon answers other calls meanwhile.
            try await waitUntil("one reply is made, two wait") { backlog.waiting == 2 && backlog.pending > 64 << 10 }
            _ = try await client.call("io.shakywords.Settings.Get")

            for left in (0..<2).reversed() {
                let readable = RawSocket.readable(sockets)
                guard let reader = readable.first, readable.count == 1 else {
                    Issue.record("\(readable.count) connections have a reply, not one")
                    return
                }
                #expect(try await reader.readReply().error == nil)
                sockets.removeAll { $0 === reader }
                try await waitUntil("the next reply is made") { backlog.waiting == left && backlog.pending > 64 << 10 }
            }
            #expect(try await sockets[0].readReply().error == nil)
        }
    }
}

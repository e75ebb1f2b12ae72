import ShakyProtocol
import Testing
import Varlink

@testable import ShakyDaemon

/// A buzzer notice told to many `Buzzers.Watch` watchers is encoded once.
@Suite struct EncodedBuzzerNoticesTests {
    @Test("The watchers of one notice share its encoded reply; the next notice is encoded afresh")
    func oneEncodingPerNotice() throws {
        let notices = EncodedBuzzerNotices()
        let asking = BuzzerNotice.joinAsking(team: "Owls")
        let replies = (0..<200).compactMap { _ in notices.reply(for: asking) }
        #expect(replies.count == 200 && Set(replies.map(\.encodedParameters)).count == 1)
        #expect(notices.encodingCount == 1)
        let expected = try ShakyAPI.BuzzersInterface.WatchReply(event: ShakyAPI.BuzzerEvent(asking))
            .streamReply(continues: true)
        #expect(replies.first == expected)

        let gone = BuzzerNotice.deviceGone(identity: "usb-1", devicePath: "/dev/input/event30")
        #expect(notices.reply(for: gone) != replies.first)
        #expect(notices.reply(for: gone) != nil)
        #expect(notices.encodingCount == 2)
        // The same notice again, later (a team asked a second time): the same reply.
        #expect(notices.reply(for: asking) == expected)
    }
}

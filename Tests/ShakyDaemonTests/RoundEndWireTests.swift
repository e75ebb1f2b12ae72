import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// How a question ended reaches every client: on `answerRevealed`, in `Status`, in the state a late watcher gets
/// first, and after a restart.
@Suite("How a question ended, on the wire")
struct RoundEndWireTests {
    @Test(
        "A skip says skipped and the time running out says timeUp, to watchers, Status, late watchers and after a restart",
        arguments: TestDaemon.Mode.allCases)
    func skippedAndTimeUp(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-round-end")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 2))
            let watch = try await client.watch()
            #expect(try await watch.nextEvent().kind == .state)

            let opened = try await client.game("Next")
            #expect(opened.roundEnd == nil, "a question in play has not ended")
            let skipped = try await client.game("Skip")
            #expect(skipped.phase == .roundOver)
            #expect(skipped.roundEnd == .skipped)
            #expect(skipped.roundWinner == nil)
            var revealed = try await watch.next(.answerRevealed)
            #expect(revealed.roundEnd == .skipped)
            #expect(revealed.winner == nil)
            #expect(revealed.answer == skipped.answer)
            #expect(try await client.status().roundEnd == .skipped)
            let late = try await client.watch()
            #expect(try await late.nextEvent().status?.roundEnd == .skipped)
            await late.cancel()

            try await client.game("Next")
            #expect(try await client.status().roundEnd == nil)
            try await client.advance(by: .seconds(60))
            let secondQuestion = try await watch.events(until: .answerRevealed)
            // The next question after one that was over is told by its events, not by the whole game again.
            #expect(
                !secondQuestion.contains { $0.kind == .state }, "\(secondQuestion.map(\.kind))")
            revealed = try #require(secondQuestion.last)
            #expect(revealed.roundEnd == .timeUp)
            #expect(try await client.status().roundEnd == .timeUp)
            await watch.cancel()
            await client.daemon.shutDown()
        }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let status = try await client.status()
            #expect(status.phase == .roundOver)
            #expect(status.roundEnd == .timeUp, "the saved game keeps how the question ended")
        }
    }

    @Test("Ending the game during a question says gameEnded; an overrule that settles it says overruled")
    func gameEndedAndOverruled() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 2))
            let watch = try await client.watch()
            try await client.game("Next")
            try await client.game("Buzz", ["team": "Owls"])
            try await client.game("Buzz", ["team": "Foxes"])
            try await client.call("io.shakywords.Game.Answer", ["team": "Owls", "answer": "Zebra"])
            #expect(try await client.status().roundEnd == nil)
            let overruled = try await client.call("io.shakywords.Game.Overrule", [:], as: OverruleReply.self)
            #expect(overruled.status.roundEnd == .overruled)
            #expect(overruled.status.roundWinner == "Owls")
            var revealed = try await watch.next(.answerRevealed)
            #expect(revealed.roundEnd == .overruled)
            #expect(revealed.winner == "Owls")

            try await client.game("Next")
            let ended = try await client.game("End")
            #expect(ended.phase == .gameOver)
            #expect(ended.roundEnd == .gameEnded)
            revealed = try await watch.next(.answerRevealed)
            #expect(revealed.roundEnd == .gameEnded)
            await watch.cancel()
        }
    }

    @Test("An overrule that opens a question over again gives watchers the whole game: its letters, whose turn it is")
    func anOverruleThatReopensAQuestionGivesTheLettersAgain() async throws {
        try await TestDaemon.run(.socket) { client in
            try await PartyPack.create(on: client)
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 2))
            let opened = try await client.game("Next")
            try await client.game("Buzz", ["team": "Owls"])
            try await client.game("Buzz", ["team": "Foxes"])
            let answer = try PartyPack.answer(to: opened.question)
            try await client.call("io.shakywords.Game.Answer", ["team": "Owls", "answer": .string(answer)])
            #expect(try await client.status().phase == .roundOver)
            // A watcher that counts down itself: the time left comes after the whole game, whose letters its line
            // shows (before, `shaky watch` drew "[01:00] Foxes to answer" without them).
            let watch = try await client.watch(ticks: false)
            #expect(try await watch.nextEvent().status?.phase == .roundOver)
            let overruled = try await client.call("io.shakywords.Game.Overrule", [:], as: OverruleReply.self)
            #expect(overruled.status.phase == .answering && overruled.status.teamUp == "Foxes")
            let events = try await watch.events(until: .state)
            #expect(!events.contains { $0.kind == .tick }, "\(events.map(\.kind))")
            let status = try #require(events.last?.status)
            #expect(status.phase == .answering && status.teamUp == "Foxes")
            #expect(status.tiles == opened.tiles, "the letters as they stood")
            #expect(status.answer == nil, "the question is in play again")
            let tick = try await watch.nextEvent()
            #expect(tick.kind == .tick && tick.phase == "answering(Foxes)")
            await watch.cancel()
        }
    }

    private typealias OverruleReply = ShakyAPI.GameInterface.OverruleReply
}

extension WatchStream where Element == VarlinkObject {
    /// The events up to the next one of `kind`, that one last.
    func events(until kind: ShakyAPI.Event.Kind) async throws -> [ShakyAPI.Event] {
        var events: [ShakyAPI.Event] = []
        while events.last?.kind != kind { events.append(try await nextEvent()) }
        return events
    }

    /// The next event of `kind`, passing over the others (ticks, phase changes).
    func next(_ kind: ShakyAPI.Event.Kind) async throws -> ShakyAPI.Event {
        while true {
            let event = try await nextEvent()
            if event.kind == kind { return event }
        }
    }
}

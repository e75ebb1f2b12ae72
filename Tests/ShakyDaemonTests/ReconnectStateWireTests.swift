import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// What a client that connects late or reconnects after a restart reads from `State`: the countdown's full length
/// and the answers judged on the current question, in `Status`, in the state a late watcher gets first, and after a
/// restart.
@Suite("The countdown's length and the judgements, on the wire")
struct ReconnectStateWireTests {
    static let rules: VarlinkObject = ["indicationTime": 40, "answerTime": 30, "hintCooldown": 0]

    @Test(
        "State says the countdown's length and the judgements to Status, late watchers and after a restart",
        arguments: TestDaemon.Mode.allCases)
    func lengthAndJudgements(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-reconnect-state")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await PartyPack.create(on: client)
            let ready = try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], rules: Self.rules))
            #expect(ready.countdownLength == nil, "no countdown runs before the first question")
            #expect(ready.judgements == [])

            try await client.game("Next")
            try await client.advance(by: .seconds(10))
            var status = try await client.status()
            #expect(status.remaining == 30)
            #expect(status.countdownLength == 40, "the time to buzz, not what is left of it")

            try await client.game("Buzz", ["team": "Owls"])
            status = try await client.game("Buzz", ["team": "Foxes"])
            #expect(status.teamUp == "Owls")
            #expect(status.countdownLength == 30, "the time to answer")
            try await client.call("io.shakywords.Game.Answer", ["team": "Owls", "answer": "Zebra"])
            try await client.advance(by: .seconds(12))
            status = try await client.status()
            #expect(status.teamUp == "Foxes")
            #expect(status.remaining == 18)
            #expect(status.countdownLength == 30)
            let wrong = ShakyAPI.JudgementEntry(team: "Owls", given: "Zebra", correct: false, awarded: 0)
            #expect(status.judgements == [wrong])
            let late = try await client.watch()
            let first = try await late.nextEvent().status
            #expect(first?.judgements == [wrong])
            #expect(first?.countdownLength == 30)
            await late.cancel()
            await client.daemon.shutDown()
        }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            var status = try await client.status()
            #expect(status.paused, "a restarted daemon restores the game paused")
            #expect(status.remaining == 18)
            #expect(status.countdownLength == 30, "the saved game keeps the countdown's length")
            #expect(status.judgements?.map(\.team) == ["Owls"], "the saved game keeps the judgements")

            try await client.game("Resume")
            let answer = try PartyPack.answer(to: status.question)
            try await client.call("io.shakywords.Game.Answer", ["team": "Foxes", "answer": .string(answer)])
            status = try await client.status()
            #expect(status.phase == .roundOver)
            #expect(status.countdownLength == nil, "no countdown runs once the question is over")
            #expect(status.judgements?.map(\.correct) == [false, true])
            let awarded = try #require(status.judgements?.last?.awarded)
            #expect(awarded > 0 && status.scores["Foxes"] == awarded)

            // Right after all wrong: the judgement reads as the host corrected it.
            try await client.call("io.shakywords.Game.Overrule", [:])
            status = try await client.status()
            #expect(status.judgements?.map(\.correct) == [false, false])
            #expect(status.judgements?.map(\.awarded) == [0, 0])

            try await client.game("Next")
            #expect(try await client.status().judgements == [], "a new question starts with none")
        }
    }
}

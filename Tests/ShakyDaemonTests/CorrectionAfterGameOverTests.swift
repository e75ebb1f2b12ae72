import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// After the game is over the host may still overrule the last judgement and adjust scores: the result, the watchers
/// and the game's one line in the history follow, and a restart (a shutdown or `kill -9`) keeps the correction.
@Suite("Corrections after the game is over")
struct CorrectionAfterGameOverTests {
    /// A one-question game between Owls and Foxes, played to its end: both buzz, Owls answer wrong, Foxes' time runs
    /// out, and Next ends the game with nobody having scored.
    static func playToTheEnd(on client: TestDaemonClient) async throws {
        try await PartyPack.create(on: client)
        try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 1))
        try await client.game("Next")
        try await client.game("Buzz", ["team": "Owls"])
        try await client.game("Buzz", ["team": "Foxes"])
        _ = try await client.call(
            "io.shakywords.Game.Answer", ["team": "Owls", "answer": "Zebra"],
            as: ShakyAPI.GameInterface.AnswerReply.self)
        try await client.advance(by: .seconds(60))
        #expect(try await client.status().phase == .roundOver)
        let over = try await client.game("Next")
        #expect(over.phase == .gameOver)
        #expect(over.result?.winners == [])
    }

    static func history(_ client: TestDaemonClient) async throws -> [ShakyAPI.FinishedGame] {
        try await client.call("io.shakywords.Game.History", ["limit": 5], as: ShakyAPI.GameInterface.HistoryReply.self)
            .games
    }

    static func leaderboard(_ client: TestDaemonClient) async throws -> [ShakyAPI.LeaderboardEntry] {
        try await client.call("io.shakywords.Game.Leaderboard", as: ShakyAPI.GameInterface.LeaderboardReply.self)
            .entries
    }

    @Test(
        "A time-out overruled after the end: labelled, watchers hear the corrected result, the history line follows",
        arguments: TestDaemon.Mode.allCases)
    func correctionsFollowToWatchersAndHistoryAndSurviveARestart(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-correction")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await Self.playToTheEnd(on: client)
            let finished = try await Self.history(client)
            #expect(finished.map(\.kind) == [.scoreless])
            let id = try #require(finished.first?.id)

            let watch = try await client.watch()
            #expect(try await watch.nextEvent().kind == .state)
            let reply = try await client.call(
                "io.shakywords.Game.Overrule", as: ShakyAPI.GameInterface.OverruleReply.self)
            #expect(
                reply.overruled
                    == ShakyAPI.Overruling(
                        team: "Foxes", given: nil, timedOut: true, correct: true, delta: 10, score: 10))
            #expect(reply.status.phase == .gameOver)
            #expect(reply.status.result?.winners == ["Foxes"])
            #expect(reply.status.roundWinner == "Foxes")

            let overruled = try await watch.nextEvent()
            #expect(overruled.kind == .overruled)
            #expect(overruled.team == "Foxes" && overruled.correct == true && overruled.timedOut == true)
            #expect(overruled.given == nil && overruled.delta == 10 && overruled.score == 10)
            let corrected = try await watch.nextEvent()
            #expect(corrected.kind == .gameOver)
            #expect(corrected.corrected == true)
            #expect(corrected.result?.winners == ["Foxes"])
            await watch.cancel()

            var history = try await Self.history(client)
            #expect(history.map(\.id) == [id], "the same line, not a second one")
            #expect(history.first?.kind == .played, "somebody scored now: it counts")
            #expect(history.first?.winners == ["Foxes"])
            #expect(history.first?.finishedAt == finished.first?.finishedAt)
            #expect(try await Self.leaderboard(client).first?.team == "Foxes")

            // A bonus ties the game.
            let tied = try await client.game("AdjustScore", ["team": "Owls", "delta": 10, "reason": "bonus round"])
            #expect(tied.result?.winners == ["Owls", "Foxes"])
            history = try await Self.history(client)
            #expect(history.map(\.id) == [id])
            #expect(Set(history.first?.winners ?? []) == ["Owls", "Foxes"])
            #expect(
                history.first?.adjustments == [ShakyAPI.TeamAdjustment(team: "Owls", delta: 10, reason: "bonus round")])

            // Play itself stays over.
            let refused = try await client.callError("io.shakywords.Game.Next")
            #expect(refused.parameters["reason"] == "gameIsOver")
            // Time passes before the shutdown, which saves the game with its clock reading moved.
            try await client.advance(by: .seconds(30))
        }

        // Restarted (the shutdown saved the game again): the corrected game is there, and takes corrections still.
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let status = try await client.status()
            #expect(status.phase == .gameOver)
            #expect(status.result?.winners == ["Owls", "Foxes"])
            let broken = try await client.game("AdjustScore", ["team": "Owls", "delta": 1, "reason": "tie-break"])
            #expect(broken.result?.winners == ["Owls"])
            let history = try await Self.history(client)
            #expect(history.count == 1)
            #expect(history.first?.winners == ["Owls"])
            #expect(history.first?.teams.map(\.score) == [11, 10])
            #expect(try await Self.leaderboard(client).map(\.wins) == [1, 0])
        }
    }

    @Test(
        "A new game ended before its first question is corrected on its own: the finished game's line is untouched",
        arguments: TestDaemon.Mode.allCases)
    func aNewGameEndedAtOnceIsNotLinkedToTheLastOnesLine(mode: TestDaemon.Mode) async throws {
        let state = try TemporaryDirectory(prefix: "shakyd-correction")
        defer { state.remove() }
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            try await Self.playToTheEnd(on: client)
            try await client.game("AdjustScore", ["team": "Owls", "delta": 5, "reason": "spirit"])
        }
        // Restarted, so that the finished game is saved again (still over) before the new one starts.
        try await TestDaemon.run(mode, stateDirectory: state.path) { client in
            let before = try await Self.history(client)
            #expect(before.first?.winners == ["Owls"])
            try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes"], questions: 1))
            #expect(try await client.game("End").phase == .gameOver)
            let corrected = try await client.game("AdjustScore", ["team": "Foxes", "delta": 7, "reason": "late"])
            // No winner: no question was played, and the history keeps none of it.
            #expect(corrected.result?.winners == [])
            #expect(corrected.result?.standings.first?.team == "Foxes")
            let after = try await Self.history(client)
            #expect(after.map(\.id) == before.map(\.id), "no line for a game ended before its first question")
            #expect(after.first?.winners == ["Owls"], "the last game's result is its own")
            #expect(after.first?.teams.map(\.score) == before.first?.teams.map(\.score))
        }
    }

    @Test("kill -9 just after a correction: the restarted daemon shows the corrected result everywhere, once")
    func aCorrectionSurvivesKillNine() async throws {
        try await DaemonProcess.withRunning { daemon in
            var client = DaemonProcess.GameClient(try await daemon.connect())
            try await client.createPack("Corrections", questions: PartyPack.questions)
            _ = try await client.new(
                teams: ["Owls", "Foxes"], packs: ["Corrections"], questions: 1, rules: .init(indicationTime: 3600))
            _ = try await client.next()
            _ = try await client.buzz(team: "Owls")
            _ = try await client.buzz(team: "Foxes")
            _ = try await client.answer(team: "Owls", answer: "Zebra")
            _ = try await client.answer(team: "Foxes", answer: "Zebra")
            _ = try await client.next()
            #expect(try await client.status().result?.winners == [])

            let overruled = try await client.overrule()
            #expect(overruled.overruled?.timedOut == false && overruled.overruled?.given == "Zebra")
            #expect(overruled.status.result?.winners == ["Foxes"])
            #expect(await daemon.kill() == .signalled(SIGKILL))
            await client.transport.close()

            try await daemon.start()
            client = DaemonProcess.GameClient(try await daemon.connect())
            #expect(try await client.status().result?.winners == ["Foxes"])
            let history = try await client.history()
            #expect(history.count == 1)
            #expect(history.first?.winners == ["Foxes"])
            #expect(history.first?.kind == .played)
            #expect(try await client.leaderboard().map(\.team) == ["Foxes", "Owls"])

            // Overruled back after the restart: the same line again, nobody scored.
            _ = try await client.overrule()
            #expect(try await client.history().map(\.kind) == [.scoreless])
            #expect(try await client.history().map(\.id) == history.map(\.id))
            await client.transport.close()
        }
    }
}

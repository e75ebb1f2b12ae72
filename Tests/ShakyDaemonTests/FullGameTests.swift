import ShakyCore
import ShakyProtocol
import ShakyTesting
import Testing

/// A whole game through the Game interface, in-process and over the socket, with time from the manual clock.
@Suite("A whole game")
struct FullGameTests {
    @Test(
        "New, hints from the host and a shake, buzzes, the 20 s cut, a wrong and a right answer, game over",
        arguments: TestDaemon.Mode.allCases)
    func wholeGame(mode: TestDaemon.Mode) async throws {
        try await TestDaemon.run(mode) { client in
            try await PartyPack.create(on: client)
            var status = try await client.game("New", PartyPack.newGame(teams: ["Owls", "Foxes", "Bees"]))
            #expect(status.phase == .ready)
            #expect(status.paused == false)
            #expect(status.questionNumber == nil)
            #expect(status.questionCount == 2)
            #expect(status.scores == ["Owls": 0, "Foxes": 0, "Bees": 0])

            // Question 1 opens with the full indication time and full points.
            status = try await client.game("Next")
            #expect(status.phase == .indication)
            #expect(status.questionNumber == 1)
            #expect(status.remaining == 60)
            #expect(status.points == 10)
            #expect(status.hintsUsed == 0)
            #expect(status.hintsLeft == 3)
            let firstQuestion = status.question
            let firstAnswer = try PartyPack.answer(to: firstQuestion)
            #expect(status.tiles?.map(\.text).sorted() == firstAnswer.uppercased().map(String.init).sorted())
            #expect(status.fixedTiles == 0)

            // The host's hint, then (after the cooldown) a shake's.
            status = try await client.game("Hint")
            #expect(status.points == 8)
            #expect(status.hintsUsed == 1)
            #expect(status.hintsLeft == 2)
            #expect(status.fixedTiles == 1)
            try await client.advance(by: .seconds(2))
            await client.daemon.runtime.shake()
            status = try await client.status()
            #expect(status.points == 6)
            #expect(status.hintsUsed == 2)
            #expect(status.fixedTiles == 2)
            #expect(status.remaining == 58)
            let sensor = try await client.call(
                "io.shakywords.Sensor.Status", as: ShakyAPI.SensorInterface.StatusReply.self
            ).sensor
            #expect(sensor.shakes == 1)
            #expect(sensor.state == .absent)

            // Two buzzes: the first cuts the time left to 20 s.
            status = try await client.game("Buzz", ["team": "Owls"])
            #expect(status.buzzes == [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 2)])
            #expect(status.remaining == 20)
            try await client.advance(by: .seconds(1))
            status = try await client.game("Buzz", ["team": "foxes"])
            #expect(
                status.buzzes == [
                    ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 2),
                    ShakyAPI.BuzzEntry(team: "Foxes", order: 2, elapsed: 3),
                ])
            #expect(status.remaining == 19)
            #expect(status.phase == .indication)

            // Past the cut by a second: Owls are up, and one second of their 60 is gone.
            try await client.advance(by: .seconds(20))
            status = try await client.status()
            #expect(status.phase == .answering)
            #expect(status.teamUp == "Owls")
            #expect(status.remaining == 59)

            let wrong = try await client.call(
                "io.shakywords.Game.Answer", ["team": "Owls", "answer": "Zebra"],
                as: ShakyAPI.GameInterface.AnswerReply.self)
            #expect(wrong.correct == false)
            #expect(wrong.status.phase == .answering)
            #expect(wrong.status.teamUp == "Foxes")
            #expect(wrong.status.remaining == 60)
            #expect(wrong.status.scores == ["Owls": 0, "Foxes": 0, "Bees": 0])

            let right = try await client.call(
                "io.shakywords.Game.Answer", ["team": "Foxes", "answer": .string(firstAnswer.lowercased())],
                as: ShakyAPI.GameInterface.AnswerReply.self)
            #expect(right.correct == true)
            #expect(right.status.phase == .roundOver)
            #expect(right.status.answer == firstAnswer)
            #expect(right.status.roundWinner == "Foxes")
            #expect(right.status.remaining == nil)
            #expect(right.status.scores == ["Owls": 0, "Foxes": 6, "Bees": 0])

            let standings = try await client.call(
                "io.shakywords.Game.Scoreboard", as: ShakyAPI.GameInterface.ScoreboardReply.self
            ).standings
            #expect(standings.map(\.team) == ["Foxes", "Owls", "Bees"])
            #expect(standings.map(\.points) == [6, 0, 0])
            #expect(standings.map(\.rank) == [1, 2, 2])

            // Question 2: every team buzzes, so buzzing ends at once and the first to buzz answers.
            status = try await client.game("Next")
            #expect(status.questionNumber == 2)
            #expect(status.question != firstQuestion)
            #expect(status.points == 10)
            #expect(status.buzzes.isEmpty)
            let secondAnswer = try PartyPack.answer(to: status.question)
            try await client.game("Buzz", ["team": "Bees"])
            try await client.game("Buzz", ["team": "Owls"])
            status = try await client.game("Buzz", ["team": "Foxes"])
            #expect(status.phase == .answering)
            #expect(status.teamUp == "Bees")
            #expect(status.remaining == 60)
            let bees = try await client.call(
                "io.shakywords.Game.Answer", ["team": "Bees", "answer": .string(secondAnswer)],
                as: ShakyAPI.GameInterface.AnswerReply.self)
            #expect(bees.correct == true)
            #expect(bees.status.scores == ["Owls": 0, "Foxes": 6, "Bees": 10])

            // Next after the last question ends the game.
            status = try await client.game("Next")
            #expect(status.phase == .gameOver)
            let result = try #require(status.result)
            #expect(result.winners == ["Bees"])
            #expect(result.questionsPlayed == 2)
            #expect(result.questionCount == 2)
            #expect(result.endedEarly == false)
            #expect(result.standings.map(\.team) == ["Bees", "Foxes", "Owls"])
            #expect(result.standings.map(\.points) == [10, 6, 0])
            #expect(result.standings.map(\.rank) == [1, 2, 3])
            #expect(result.standings.map(\.correctAnswers) == [1, 1, 0])
            #expect(result.standings.map(\.buzzes) == [1, 2, 2])

            let history = try await client.call(
                "io.shakywords.Game.History", ["limit": 5], as: ShakyAPI.GameInterface.HistoryReply.self
            ).games
            #expect(history.count == 1)
            #expect(history.first?.winners == ["Bees"])
            #expect(
                history.first?.teams == [
                    ShakyAPI.TeamScore(name: "Bees", score: 10), ShakyAPI.TeamScore(name: "Foxes", score: 6),
                    ShakyAPI.TeamScore(name: "Owls", score: 0),
                ])
            let leaderboard = try await client.call(
                "io.shakywords.Game.Leaderboard", as: ShakyAPI.GameInterface.LeaderboardReply.self
            ).entries
            #expect(
                leaderboard == [
                    ShakyAPI.LeaderboardEntry(team: "Bees", games: 1, wins: 1, points: 10),
                    ShakyAPI.LeaderboardEntry(team: "Foxes", games: 1, wins: 0, points: 6),
                    ShakyAPI.LeaderboardEntry(team: "Owls", games: 1, wins: 0, points: 0),
                ])

            // The cues the game asked for, in order (ticks only sound in the last five seconds).
            let cues = client.soundPlayer.playedCues.filter { $0 != .tick }
            #expect(
                cues == [
                    .startup, .hint, .hint, .buzz(slot: 0), .buzz(slot: 1), .wrong, .correct, .buzz(slot: 2),
                    .buzz(slot: 0), .buzz(slot: 1), .correct, .gameOver,
                ])
        }
    }
}

import Testing
import TriviaEngine

@Suite("Results")
struct GameResultTests {
    /// A game of `teams` ended with `scores` given by hand after a first question skipped (`playing: false`: before
    /// any question).
    private func finished(
        scores: [String: Int], teams: [String] = ["Owls", "Foxes", "Bears", "Moles"], playing: Bool = true
    ) throws -> GameResult {
        var game = try EngineFixtures.game(teams: teams)
        var now = Duration.zero
        if playing {
            _ = try game.handle(.nextQuestion, at: now)
            _ = try game.handle(.skipQuestion, at: now + sec(1))
            now += sec(1)
        }
        for team in teams {
            if let score = scores[team], score != 0 {
                now += sec(1)
                _ = try game.handle(.adjustScore(team: team, delta: score, reason: "test"), at: now)
            }
        }
        _ = try game.handle(.endGame, at: now + sec(1))
        return try #require(game.result)
    }

    @Test func tiedTeamsShareARankAndTheNextRankSkips() throws {
        let result = try finished(scores: ["Owls": 5, "Foxes": 9, "Bears": 9, "Moles": 1])
        #expect(result.standings.map(\.team) == ["Foxes", "Bears", "Owls", "Moles"])
        #expect(result.standings.map(\.rank) == [1, 1, 3, 4])
        #expect(result.winners == ["Foxes", "Bears"])
    }

    @Test func tieBelowTheTopSharesItsRank() throws {
        let result = try finished(scores: ["Owls": 3, "Foxes": 3, "Bears": 8, "Moles": 3])
        #expect(result.standings.map(\.rank) == [1, 2, 2, 2])
        #expect(result.standings.map(\.team) == ["Bears", "Owls", "Foxes", "Moles"])
        #expect(result.winners == ["Bears"])
    }

    @Test func everyoneTiedMeansEveryoneWins() throws {
        let result = try finished(scores: ["Owls": 4, "Foxes": 4], teams: ["Owls", "Foxes"])
        #expect(result.standings.map(\.rank) == [1, 1])
        #expect(result.winners == ["Owls", "Foxes"])
    }

    @Test("A game no team scored in has no winner, though every team shares the first rank")
    func aScorelessGameHasNoWinner() throws {
        let result = try finished(scores: [:], teams: ["Owls", "Foxes"])
        #expect(result.standings.map(\.rank) == [1, 1])
        #expect(result.isScoreless)
        #expect(result.winners.isEmpty)
    }

    @Test("Teams all tied below zero without a right answer have no winner; tied above it, they all win")
    func teamsTiedBelowZeroWithoutARightAnswerHaveNoWinner() throws {
        let result = try finished(scores: ["Owls": -5, "Foxes": -5], teams: ["Owls", "Foxes"])
        #expect(result.standings.map(\.rank) == [1, 1])
        #expect(result.winners.isEmpty)
        #expect(try finished(scores: ["Owls": -5, "Foxes": -7], teams: ["Owls", "Foxes"]).winners == ["Owls"])
    }

    @Test("A game ended before its first question has no winner, whatever the host's adjustments, as it has no history")
    func aGameEndedBeforeItsFirstQuestionHasNoWinner() throws {
        let result = try finished(scores: ["Owls": -5, "Foxes": 7], teams: ["Owls", "Foxes"], playing: false)
        #expect(result.questionsPlayed == 0)
        #expect(result.standings.map(\.team) == ["Foxes", "Owls"])
        #expect(result.winners.isEmpty)
        #expect(try finished(scores: ["Owls": -5, "Foxes": 7], teams: ["Owls", "Foxes"]).winners == ["Foxes"])
    }

    @Test func standingsCarryPerTeamStatistics() throws {
        var game = try EngineFixtures.game(teams: ["Owls", "Foxes"], answers: ["Paris", "Rome"])
        var now = Duration.zero
        for _ in 0..<2 {
            _ = try game.handle(.nextQuestion, at: now)
            _ = try game.handle(.hint(source: .shake), at: now + sec(1))
            _ = try game.handle(.buzz(team: "Foxes"), at: now + sec(2))
            _ = try game.handle(.buzz(team: "Owls"), at: now + sec(6))
            let answer = try #require(game.round).question.answer
            _ = try game.handle(.answer(team: "Foxes", text: answer), at: now + sec(7))
            now += sec(100)
        }
        _ = try game.handle(.nextQuestion, at: now)
        let result = try #require(game.result)
        let foxes = try #require(result.standings.first)
        #expect(
            foxes
                == GameResult.Standing(
                    team: "Foxes", points: 16, rank: 1, correctAnswers: 2, hintsUsed: 2, buzzes: 2,
                    averageBuzzTime: sec(2)))
        let owls = try #require(result.standings.last)
        #expect(
            owls
                == GameResult.Standing(
                    team: "Owls", points: 0, rank: 2, correctAnswers: 0, hintsUsed: 0, buzzes: 2,
                    averageBuzzTime: sec(6)))
        #expect(result.winners == ["Foxes"])
    }

    @Test func teamThatNeverBuzzedHasNoAverage() throws {
        let result = try finished(scores: ["Owls": 1], teams: ["Owls", "Foxes"])
        #expect(result.standings.allSatisfy { $0.averageBuzzTime == nil && $0.buzzes == 0 })
    }
}

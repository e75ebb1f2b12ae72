import Foundation
import Testing
import TriviaEngine

@testable import ShakyStore

/// The snapshot's JSON made with the questions' text kept between saves is the text `JSONEncoder` makes of the game.
@Suite struct GameSnapshotJSONTests {
    /// A game of `teams` at each step of a question: ready, open, hinted, buzzed, answered wrong, over, and a score
    /// changed by hand.
    static func gameAtEachStep(teams: [String], seed: UInt64) throws -> [Game] {
        var game = try Game(
            setup: GameSetup(
                teams: teams, questionPool: StoreFixtures.awkwardQuestions, questionCount: 3, seed: seed))
        var steps = [game]
        let events: [GameEvent] = [
            .nextQuestion, .hint(source: .shake), .buzz(team: teams[0]), .buzz(team: teams[1]),
            .answer(team: teams[0], text: "Zebra"), .adjustScore(team: teams[1], delta: 3, reason: "a \"good\" sport"),
            .endGame,
        ]
        for (second, event) in events.enumerated() {
            _ = try game.handle(event, at: .seconds(second + 1))
            steps.append(game)
        }
        return steps
    }

    @Test("The same text as the whole game encoded, at each step, for games of other questions one after another")
    func sameTextAsTheWholeGame() throws {
        let snapshotJSON = GameSnapshotJSON()
        // Team names that look like the questions' member, in and out of quotes.
        let games =
            try Self.gameAtEachStep(teams: ["Owls", #""questions":[]"#], seed: 7)
            + Self.gameAtEachStep(teams: ["questions", "Foxes"], seed: 8)
            + Self.gameAtEachStep(teams: ["Owls", "Foxes"], seed: 7)
        #expect(Set(games.map(\.questions)).count == 2)
        for game in games {
            let json = try snapshotJSON.json(game)
            #expect(json == (try StoreTransaction.json(game)))
            #expect(try JSONDecoder().decode(Game.self, from: Data(json.utf8)) == game)
        }
    }

    @Test("A saved game reads back as it was, and the file holds its questions")
    func savedAndLoaded() throws {
        let database = try AppDatabase.inMemory(builtinPacks: .skip)
        for game in try Self.gameAtEachStep(teams: ["Owls", "Foxes"], seed: 3) {
            try database.saveSnapshot(game)
            #expect(try database.loadSnapshot() == game)
        }
        let text = try database.read { try String.fetchOne($0, sql: "SELECT game FROM gameSnapshot") }
        #expect(text?.contains(#""answer":"Brie""#) == true)
    }
}

import Foundation
import Testing
import TriviaEngine

/// A saved game is a file: each damage the moves would trap on is found before the game is played on.
@Suite("A saved game's consistency")
struct SavedGameConsistencyTests {
    /// Owls up to answer on question 1 of 2, after a hint, Owls then Foxes buzzing.
    static func answeringGame() throws -> Game {
        var game = try EngineFixtures.game(answers: ["Copenhagen", "Oslo"])
        _ = try game.handle(.nextQuestion, at: .zero)
        _ = try game.handle(.hint(source: .shake), at: sec(1))
        _ = try game.handle(.buzz(team: "Owls"), at: sec(3))
        _ = try game.handle(.buzz(team: "Foxes"), at: sec(4))
        _ = try game.handle(.clockAdvanced, at: sec(30))
        return game
    }

    /// `game`'s JSON with the JSON text `value` put at `path` ("round.buzzes.0.team": keys, and array indices as
    /// numbers), decoded again.
    static func damaged(_ game: Game, _ path: String, _ value: String) throws -> Game {
        func setting(_ value: Any, at path: ArraySlice<Substring>, in json: Any) -> Any {
            guard let first = path.first else { return value }
            if let index = Int(first), var array = json as? [Any], array.indices.contains(index) {
                array[index] = setting(value, at: path.dropFirst(), in: array[index])
                return array
            }
            if var object = json as? [String: Any], Int(first) == nil {
                object[String(first)] = setting(value, at: path.dropFirst(), in: object[String(first)] ?? NSNull())
                return object
            }
            Issue.record("no \(first) in the saved game's JSON")
            return json
        }
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(game))
        let replacement = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
        let changed = setting(replacement, at: path.split(separator: ".")[...], in: json)
        return try JSONDecoder().decode(Game.self, from: JSONSerialization.data(withJSONObject: changed))
    }

    @Test func aGameAsPlayedIsConsistent() throws {
        let game = try Self.answeringGame()
        #expect(game.phase == .answering(team: "Owls"))
        #expect(game.inconsistency == nil)
        #expect(try Self.damaged(game, "isPaused", "true").inconsistency == nil)
    }

    @Test(
        "each damage is named",
        arguments: [
            ("random.state", "[]", "random generator"),
            ("random.state", "[0, 0, 0, 0]", "random generator"),
            ("round.scramble.letterPositions", "[99]", "scramble"),
            ("round.scramble.letterPositions", "[3, 2, 1]", "scramble"),
            ("round.scramble.fixedCount", "50", "scramble"),
            ("round.scramble.shown", #"["C"]"#, "scramble"),
            ("round.scramble.shown.0", ##""#""##, "letters of another answer"),
            ("round.remaining", "[100000, 0]", "longer than any timer"),
            ("round.number", "-5", "question number -5"),
            ("round.number", "3", "question number 3"),
            ("round.number", "\(Int.min)", "question number \(Int.min)"),
            ("round.hintsUsed", "-1", "hints were used"),
            ("round.turnsTaken", "3", "turns were taken"),
            ("round.buzzes.0.hintsUsed", "-1", "a buzz's hints"),
            ("round.buzzes.0.team", #""Nobody""#, "Nobody, who does not play"),
            ("round.buzzes.1.team", #""Owls""#, "Owls buzzed twice"),
            ("round.points", "\(Int.max)", "worth"),
            ("round.remaining", "[\(Int64.max), 0]", "the question's times"),
            ("phase", #"{"answering": {"team": "Foxes"}}"#, "Foxes is up to answer"),
            ("phase", #"{"ready": {}}"#, "waiting for the first question"),
            ("phase", #"{"gameOver": {}}"#, "without a result"),
            ("teams.0.score", "\(Int.max)", "out of range"),
            ("teams.0.buzzCount", "-1", "negative count"),
            ("teams.1.name", #""owls""#, "two teams are called"),
            ("teams.1.name", #""\u200b""#, "a team name is empty"),
            ("teams.0.adjustments", #"[{"delta": \#(Int.min), "reason": "x"}]"#, "adjustment out of range"),
            ("settings.basePoints", "0", "its rules"),
            ("questions", "[]", "0 questions"),
            ("questions.0.alternates", "[\(Array(repeating: #""x""#, count: 101).joined(separator: ","))]", "too many"),
        ])
    func damageIsFound(path: String, value: String, problem: String) throws {
        let damaged = try Self.damaged(Self.answeringGame(), path, value)
        let inconsistency = try #require(damaged.inconsistency)
        #expect(inconsistency.contains(problem), "\(inconsistency)")
    }

    @Test func aSingleTeamIsFound() throws {
        let game = try Self.answeringGame()
        let json = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(game)) as? [String: Any])
        let owls = try JSONSerialization.data(withJSONObject: try #require((json["teams"] as? [Any])?.first))
        let damaged = try Self.damaged(game, "teams", "[\(String(decoding: owls, as: UTF8.self))]")
        #expect(damaged.inconsistency?.contains("it has 1 teams") == true)
    }
}

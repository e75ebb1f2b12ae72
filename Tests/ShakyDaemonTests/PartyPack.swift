import ShakyProtocol
import ShakyTesting
import Testing
import Varlink

/// A small custom pack whose answers the tests know, made through the Packs interface.
enum PartyPack {
    static let name = "Party"

    static let questions: [ShakyAPI.Question] = [
        ShakyAPI.Question(text: "Which animal has a trunk?", answer: "Elephant", difficulty: .easy),
        ShakyAPI.Question(text: "Which animal has the longest neck?", answer: "Giraffe", difficulty: .medium),
    ]

    /// The answer to the question whose text is `text`.
    static func answer(to text: String?) throws -> String {
        try #require(questions.first { $0.text == text }?.answer, "not a Party question: \(text ?? "none")")
    }

    /// Creates the pack and its questions on the daemon.
    static func create(on client: TestDaemonClient) async throws {
        try await client.call("io.shakywords.Packs.Create", ["name": .string(name)])
        for question in questions {
            _ = try await client.call(
                "io.shakywords.Packs.AddQuestion",
                ShakyAPI.PacksInterface.AddQuestionParameters(pack: name, question: question),
                as: ShakyAPI.PacksInterface.AddQuestionReply.self)
        }
    }

    /// `New` parameters for a seeded game on this pack.
    static func newGame(teams: [String], questions: Int = 2, rules: VarlinkObject? = nil) -> VarlinkObject {
        var parameters: VarlinkObject = [
            "teams": .array(teams.map(JSONValue.string)), "packs": [.string(name)], "questions": .int(questions),
            "seed": 7,
        ]
        if let rules { parameters["rules"] = .object(rules) }
        return parameters
    }
}

extension ShakyAPI.State {
    /// The teams' scores by name.
    var scores: [String: Int] {
        Dictionary(uniqueKeysWithValues: teams.map { ($0.name, $0.score) })
    }

    /// How many tiles hints have put in place.
    var fixedTiles: Int { tiles?.filter(\.fixed).count ?? 0 }
}

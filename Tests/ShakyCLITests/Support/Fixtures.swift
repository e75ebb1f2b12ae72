import ShakyProtocol

/// Replies as the daemon would send them, for rendering and client tests.
enum Fixtures {
    /// `TIGER` scrambled as `T G I R E`, with the `T` fixed by one hint.
    static let tiles: [ShakyAPI.Tile] = ["T", "G", "I", "R", "E"].enumerated().map { index, letter in
        ShakyAPI.Tile(text: letter, letter: true, fixed: index == 0)
    }

    /// `SNOW OWL` scrambled, nothing fixed.
    static let twoWordTiles: [ShakyAPI.Tile] = "WONS LWO".map { character in
        ShakyAPI.Tile(text: String(character), letter: character != " ", fixed: false)
    }

    static let teams = [ShakyAPI.TeamScore(name: "Owls", score: 12), ShakyAPI.TeamScore(name: "Foxes", score: 8)]

    /// Question 3 of 10 open, one hint used, Owls buzzed and is up.
    static let answering = ShakyAPI.State(
        phase: .answering, paused: false, teamUp: "Owls", questionNumber: 3, questionCount: 10,
        question: "What big cat has stripes?", tiles: tiles, pattern: "_ _ _ _ _", points: 8, hintsUsed: 1,
        hintsLeft: 2, remaining: 17.3, teams: teams, buzzes: [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 3.25)]
    )

    /// A new game waiting for its first question.
    static let ready = ShakyAPI.State(
        phase: .ready, paused: false, questionCount: 10, hintsUsed: 0, hintsLeft: 0, teams: teams, buzzes: [])

    /// Question 3 over, got by the Owls.
    static let roundOver = ShakyAPI.State(
        phase: .roundOver, paused: false, questionNumber: 3, questionCount: 10, question: "What big cat has stripes?",
        hintsUsed: 1, hintsLeft: 0, teams: teams, buzzes: [], answer: "TIGER", roundWinner: "Owls")

    static let standings = [
        ShakyAPI.Standing(
            team: "Owls", points: 18, rank: 1, correctAnswers: 2, hintsUsed: 1, buzzes: 3, averageBuzzTime: 4.25),
        ShakyAPI.Standing(
            team: "Foxes", points: 18, rank: 1, correctAnswers: 2, hintsUsed: 3, buzzes: 2, averageBuzzTime: 10),
        ShakyAPI.Standing(
            team: "Bees", points: 0, rank: 3, correctAnswers: 0, hintsUsed: 0, buzzes: 0, averageBuzzTime: nil),
    ]

    static let result = ShakyAPI.Result(
        standings: standings, winners: ["Owls", "Foxes"], questionsPlayed: 7, questionCount: 10, endedEarly: true)

    static let gameOver = ShakyAPI.State(
        phase: .gameOver, paused: false, questionNumber: 7, questionCount: 10, hintsUsed: 0, hintsLeft: 0, teams: teams,
        buzzes: [], result: result)

    static let animals = ShakyAPI.Pack(name: "Animals", builtin: true, questions: 40, easy: 10, medium: 20, hard: 10)

    static let tigerQuestion = ShakyAPI.StoredQuestion(
        id: 12, pack: "Animals", text: "What big cat has stripes?", answer: "Tiger", alternates: ["Tigress"],
        difficulty: .easy)

    /// A `Watch` event of `kind` with `configure` applied.
    static func event(
        _ kind: ShakyAPI.Event.Kind, _ configure: (inout ShakyAPI.Event) -> Void = { _ in }
    ) -> ShakyAPI.Event {
        var event = ShakyAPI.Event(kind: kind)
        configure(&event)
        return event
    }
}

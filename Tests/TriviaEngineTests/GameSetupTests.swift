import Foundation
import Testing
import TriviaEngine

@Suite("Game setup")
struct GameSetupTests {
    private func setup(
        teams: [String] = EngineFixtures.teams, answers: [String] = ["Paris", "Rome", "Oslo"], count: Int = 2,
        difficulty: DifficultyFilter = .any, settings: GameRules = GameRules()
    ) -> GameSetup {
        GameSetup(
            teams: teams, questionPool: EngineFixtures.questions(answers), questionCount: count,
            difficulty: difficulty, settings: settings, seed: 1)
    }

    @Test func startsReadyWithTrimmedTeamsAndRequestedQuestions() throws {
        let game = try Game(setup: setup(teams: ["  Owls ", "Foxes"]))
        #expect(game.phase == .ready)
        #expect(game.teams.map(\.name) == ["Owls", "Foxes"])
        #expect(game.teams.allSatisfy { $0.score == 0 })
        #expect(game.questions.count == 2)
        #expect(game.round == nil)
    }

    @Test func rejectsTooFewAndTooManyTeams() {
        #expect(throws: GameSetupError.teamCount(1)) { try Game(setup: setup(teams: ["Solo"])) }
        let nine = (1...9).map { "Team \($0)" }
        #expect(throws: GameSetupError.teamCount(9)) { try Game(setup: setup(teams: nine)) }
        #expect((try? Game(setup: setup(teams: Array(nine.prefix(8))))) != nil)
    }

    @Test func rejectsEmptyLongAndDuplicateNames() {
        #expect(throws: GameSetupError.emptyTeamName(position: 2)) {
            try Game(setup: setup(teams: ["Owls", "  \t"]))
        }
        let long = String(repeating: "x", count: 25)
        #expect(throws: GameSetupError.teamNameTooLong(long, length: 25)) {
            try Game(setup: setup(teams: ["Owls", long]))
        }
        let longest = " " + String(repeating: "é", count: 24) + " "
        #expect((try? Game(setup: setup(teams: ["Owls", longest]))) != nil)
        // One character with thousands of marks stacked on it is refused, without repeating it.
        let stacked = "Z" + String(repeating: "\u{0301}", count: 5000)
        #expect(stacked.count == 1)
        #expect(throws: GameSetupError.teamNameTooComplex(position: 2, codePoints: 5001)) {
            try Game(setup: setup(teams: ["Owls", stacked]))
        }
        #expect(!GameSetupError.teamNameTooComplex(position: 2, codePoints: 5001).description.contains("Z"))
        // Thirty such characters are refused the same way, not by repeating the name as too long.
        let longAndStacked = String(repeating: "Z" + String(repeating: "\u{0301}", count: 100), count: 30)
        #expect(throws: GameSetupError.teamNameTooComplex(position: 1, codePoints: 3030)) {
            try Game(setup: setup(teams: [longAndStacked, "Owls"]))
        }
        // 24 family emoji (7 code points each) are a name.
        let families = String(repeating: "👨‍👩‍👧‍👦", count: 24)
        #expect((try? Game(setup: setup(teams: ["Owls", families]))) != nil)
        #expect(throws: GameSetupError.duplicateTeamName("Owls", "OWLS")) {
            try Game(setup: setup(teams: ["Owls", "Foxes", " OWLS"]))
        }
    }

    @Test("Names the history keeps as one team are refused: ß is ss, ﬃ is ffi, a zero-width space is nothing")
    func rejectsNamesTheHistoryFoldsTogether() {
        #expect(throws: GameSetupError.duplicateTeamName("Straße", "STRASSE")) {
            try Game(setup: setup(teams: ["Straße", "STRASSE"]))
        }
        #expect(throws: GameSetupError.duplicateTeamName("ﬃ", "FFI")) {
            try Game(setup: setup(teams: ["ﬃ", "FFI"]))
        }
        #expect(throws: GameSetupError.emptyTeamName(position: 2)) {
            try Game(setup: setup(teams: ["Owls", "\u{200B}"]))
        }
        #expect(throws: GameSetupError.duplicateTeamName("Owls", "\u{200B}Owls")) {
            try Game(setup: setup(teams: ["Owls", "\u{200B}Owls"]))
        }
        // Nor do characters that show nothing inside a name: the two names read the same on every screen.
        for hidden in ["Ow\u{200B}ls", "Owls\u{2060}", "O\u{00AD}wls", "\u{FEFF}OWLS", "Owls\u{E0041}"] {
            #expect(throws: GameSetupError.duplicateTeamName("Owls", hidden)) {
                try Game(setup: setup(teams: ["Owls", hidden]))
            }
        }
        // Accents still make another team, as they do in the history.
        #expect((try? Game(setup: setup(teams: ["Café", "Cafe"]))) != nil)
    }

    /// A name of a zero-width joiner, a word joiner or a variation selector alone (which the history's key keeps)
    /// showed as nothing on every screen: it is no name, as a zero-width space alone is not. An emoji sequence keeps
    /// its joiners and selectors, and is found by them.
    @Test(arguments: ["\u{200D}", " \u{2060}\u{FEFF} ", "\u{200C}\u{FE0F}"])
    func aNameOfCharactersThatDoNotShowIsNoName(name: String) throws {
        #expect(throws: GameSetupError.emptyTeamName(position: 2)) { try Game(setup: setup(teams: ["Owls", name])) }
        #expect(GameSetupError.emptyTeamName(position: 2).description.contains("has no name that shows"))
        let game = try Game(setup: setup(teams: ["👨‍👩‍👧‍👦 Family", "❤️ Hearts"]))
        #expect(game.teams.map(\.name) == ["👨‍👩‍👧‍👦 Family", "❤️ Hearts"])
        #expect(game.team(named: "👨‍👩‍👧‍👦 FAMILY")?.name == "👨‍👩‍👧‍👦 Family")
    }

    @Test func rejectsQuestionCountOutsideOneToFifty() {
        #expect(throws: GameSetupError.questionCount(0)) { try Game(setup: setup(count: 0)) }
        #expect(throws: GameSetupError.questionCount(51)) { try Game(setup: setup(count: 51)) }
    }

    @Test("A question in two packs, or again in other capitals, accents or spacing, is drawn at most once")
    func aRepeatedQuestionIsDrawnOnce() {
        let pool = [
            Question(text: "Which planet is the Red Planet?", answer: "Mars", difficulty: .easy),
            Question(text: "which planet is the  red planet?", answer: "mars", difficulty: .hard),
            Question(text: "Q?", answer: "Yes", difficulty: .easy),
            Question(text: "q?", answer: "YES", difficulty: .easy),
            Question(text: "Q?", answer: "No", difficulty: .easy),
            Question(text: "Capital of Vietnam?", answer: "Hà Nội", difficulty: .easy),
            Question(text: "capital of vietnam?", answer: "Ha Noi", difficulty: .medium),
        ]
        let setup = GameSetup(teams: EngineFixtures.teams, questionPool: pool, questionCount: 3, seed: 1)
        #expect(setup.eligibleQuestions.map(\.answer) == ["Mars", "Yes", "No", "Hà Nội"])
    }

    @Test func tooFewEligibleQuestionsSaysHowManyThereAre() throws {
        var pool = EngineFixtures.questions(["Paris", "Rome"], difficulty: .easy)
        pool += EngineFixtures.questions(["Oslo", "Bern", "Lima"], difficulty: .hard)
        pool.append(pool[0])  // a duplicate counts once
        pool.append(Question(text: "Unplayable?", answer: "?!", difficulty: .hard))
        let setup = GameSetup(
            teams: EngineFixtures.teams, questionPool: pool, questionCount: 4, difficulty: .hard, seed: 1)
        #expect(setup.eligibleQuestions.count == 3)
        let error = #expect(throws: GameSetupError.self) { try Game(setup: setup) }
        #expect(error == .notEnoughQuestions(requested: 4, eligible: 3, difficulty: .hard))
        #expect(error?.description.contains("only 3 eligible questions") == true)
        var fewer = setup
        fewer.questionCount = 3
        let game = try Game(setup: fewer)
        #expect(game.questions.allSatisfy { $0.difficulty == .hard })
    }

    @Test func rejectsUnplayableSettingsWithTheSettingNamed() {
        let cases: [(GameRules, GameRulesError)] = [
            (GameRules(indicationTime: .zero), .durationNotPositive(setting: "indicationTime", value: .zero)),
            (GameRules(answerTime: sec(-1)), .durationNotPositive(setting: "answerTime", value: sec(-1))),
            (
                GameRules(timeAfterFirstBuzz: sec(7200)),
                .durationTooLong(setting: "timeAfterFirstBuzz", value: sec(7200))
            ),
            (GameRules(hintCooldown: ms(-1)), .durationNegative(setting: "hintCooldown", value: ms(-1))),
            (GameRules(basePoints: 0), .basePointsOutOfRange(0)),
            (GameRules(pointsPerHint: -1), .pointsPerHintOutOfRange(-1, basePoints: 10)),
            (GameRules(minimumPoints: 11), .minimumPointsOutOfRange(11, basePoints: 10)),
            (GameRules(maximumHints: -1), .maximumHintsOutOfRange(-1)),
        ]
        for (settings, expected) in cases {
            #expect(throws: GameSetupError.settings(expected)) { try Game(setup: setup(settings: settings)) }
            #expect(!expected.description.isEmpty)
        }
        #expect(GameSetupError.settings(.basePointsOutOfRange(0)).description.contains("basePoints"))
    }

    @Test func defaultsAreTheOriginalGames() throws {
        let settings = GameRules()
        #expect(settings.indicationTime == sec(60))
        #expect(settings.timeAfterFirstBuzz == sec(20))
        #expect(settings.answerTime == sec(60))
        #expect(settings.hintCooldown == ms(1500))
        #expect(settings.basePoints == 10 && settings.pointsPerHint == 2)
        #expect(settings.minimumPoints == 2 && settings.maximumHints == 3)
        #expect(settings.answerTolerance && settings.ignoreDiacritics)
        #expect(throws: Never.self) { try settings.validate() }
    }

    @Test func partialSettingsJSONTakesDefaultsForMissingKeys() throws {
        let json = Data(#"{"basePoints": 20, "answerTolerance": false}"#.utf8)
        let settings = try JSONDecoder().decode(GameRules.self, from: json)
        #expect(settings == GameRules(basePoints: 20, answerTolerance: false))
    }

    @Test func sameSeedDrawsTheSameQuestionsAndScrambles() throws {
        let answers = (1...30).map { "Answer number \($0)" }
        func play(seed: UInt64) throws -> ([Question], [ScrambleDisplay]) {
            var game = try Game(
                setup: GameSetup(
                    teams: EngineFixtures.teams, questionPool: EngineFixtures.questions(answers), questionCount: 5,
                    seed: seed))
            var displays: [ScrambleDisplay] = []
            for round in 0..<5 {
                _ = try game.handle(.nextQuestion, at: sec(round * 100))
                _ = try game.handle(.hint(source: .shake), at: sec(round * 100 + 1))
                displays.append(try #require(game.round).scramble.display)
                _ = try game.handle(.skipQuestion, at: sec(round * 100 + 2))
            }
            return (game.questions, displays)
        }
        let first = try play(seed: 42)
        let again = try play(seed: 42)
        let other = try play(seed: 43)
        #expect(first.0 == again.0 && first.1 == again.1)
        #expect(first.0 != other.0 || first.1 != other.1)
    }
}

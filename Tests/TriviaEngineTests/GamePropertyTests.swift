import Foundation
import PropertyBased
import Testing
import TriviaEngine

/// Random sequences of legal and illegal events at random times never break the game's invariants.
@Suite("Game properties")
struct GamePropertyTests {
    static let answers = ["Copenhagen", "Ærø", "Hà Nội", "AAA", "Oslo", "New York", "Đà Nẵng", "Guinea-Bissau"]
    static let teamNames = ["Owls", "Foxes", "Bears", "Nobody"]  // the last one does not play

    /// Turns one random number into an event: half the time one that fits the phase, so games get deep,
    /// otherwise any event, many of them illegal in the phase or always.
    static func event(from code: Int, game: Game) -> GameEvent {
        let team = teamNames[(code / 16) % teamNames.count]
        if (code / 5) % 2 == 0 {
            return fittingEvent(from: code, game: game, team: teamNames[(code / 16) % 3])
        }
        switch code % 16 {
        case 0: return .nextQuestion
        case 1: return .skipQuestion
        case 2: return .pause
        case 3: return .resume
        case 4: return .adjustScore(team: team, delta: (code / 64) % 11 - 5, reason: code % 3 == 0 ? "" : "fix")
        case 5: return code % 31 == 0 ? .endGame : .clockAdvanced
        case 6: return .hint(source: .shake)
        case 7: return .hint(source: .manual)
        case 8, 9: return .buzz(team: team)
        case 10, 14: return .answer(team: game.teamUp ?? team, text: game.round?.question.answer ?? "x")
        case 11: return .answer(team: game.teamUp ?? team, text: "wrong")
        case 12: return .answer(team: team, text: game.round?.question.answer ?? "x")
        case 13: return .overrule
        case 15: return .undoBuzz(team: team)
        default: return .clockAdvanced
        }
    }

    /// An event that is usually legal in the game's phase.
    static func fittingEvent(from code: Int, game: Game, team: String) -> GameEvent {
        if game.isPaused { return .resume }
        switch game.phase {
        case .ready, .roundOver: return .nextQuestion
        case .indication: return code % 3 == 0 ? .hint(source: .shake) : .buzz(team: team)
        case .answering(let up):
            return .answer(team: up, text: code % 4 == 0 ? game.round?.question.answer ?? "" : "no")
        case .gameOver: return .clockAdvanced
        }
    }

    /// A time step: mostly short, sometimes long enough to pass several deadlines.
    static func step(from code: Int) -> Duration {
        let scale = (code / 7) % 8
        let amount = (code / 61) % 1000
        switch scale {
        case 0, 1: return .zero
        case 2, 3: return .milliseconds(amount)
        case 4, 5, 6: return .milliseconds(amount * 10)
        default: return .milliseconds(amount * 100)
        }
    }

    @Test func randomEventSequencesKeepTheInvariants() async throws {
        let input = zip(Gen.uint64(), Gen.int(in: 0...1_000_000).array(of: 1...120))
        await propertyCheck(count: 150, input: input) { seed, codes in
            let settings = GameRules(
                maximumHints: 6, hintCooldown: .milliseconds(500), buzzerMode: seed % 2 == 0 ? .buzzOrder : .classic)
            var game = try Game(
                setup: GameSetup(
                    teams: Array(Self.teamNames.prefix(3)), questionPool: EngineFixtures.questions(Self.answers),
                    questionCount: Self.answers.count, settings: settings, seed: seed))
            var now = Duration.seconds(1000)
            for code in codes {
                now += Self.step(from: code)
                let event = Self.event(from: code, game: game)
                let before = game
                do {
                    let actions = try game.handle(event, at: now)
                    try Self.checkScores(before: before, after: game, actions: actions)
                    Self.checkActions(actions)
                } catch let error as GameError {
                    #expect(game == before, "refused \(event) (\(error)) changed the state")
                }
                try Self.checkState(game, at: now)
            }
        }
    }

    /// Scores change only by judgements, overrules and host adjustments, exactly as the actions say.
    static func checkScores(before: Game, after: Game, actions: [GameAction]) throws {
        var expected = Dictionary(uniqueKeysWithValues: before.teams.map { ($0.name, $0.score) })
        for action in actions {
            switch action {
            case .judged(let team, _, let correct, let points):
                #expect(correct || points == 0)
                expected[team, default: 0] += points
            case .scoreAdjusted(let team, let delta, _, let newScore):
                expected[team, default: 0] += delta
                #expect(expected[team] == newScore)
            case .judgementOverruled(let team, _, _, let delta, let newScore):
                expected[team, default: 0] += delta
                #expect(expected[team] == newScore)
            default:
                break
            }
        }
        for team in after.teams {
            #expect(
                team.score == expected[team.name], "\(team.name) changed without a judgement, overrule or adjustment")
        }
    }

    static func checkActions(_ actions: [GameAction]) {
        for action in actions {
            switch action {
            case .tick(_, let remaining): #expect(remaining > .zero)
            case .wake(let after): #expect(after > .zero && after <= .seconds(1))
            case .buzzed(_, _, let elapsed, let remaining): #expect(elapsed >= .zero && remaining >= .zero)
            case .answerRevealed(_, let winner, let end):
                // Only a right answer or an overrule gives a question a winner.
                #expect(
                    end == .overruled || (winner != nil) == (end == .answered), "\(end), won by \(winner ?? "none")")
            default: break
            }
        }
    }

    static func checkState(_ game: Game, at now: Duration) throws {
        let settings = game.settings
        if let round = game.round {
            let scramble = round.scramble
            let lettersDiffer = Set(scramble.letterPositions.map { scramble.solution[$0] }).count > 1
            #expect(!scramble.showsAnswer || !lettersDiffer, "the display spells the answer")
            #expect(scramble.fixedCount <= scramble.hintCapacity)
            #expect(round.hintsUsed <= settings.maximumHints)
            #expect(round.points >= settings.minimumPoints && round.points <= settings.basePoints)
            #expect(round.hintCooldownRemaining >= .zero)
            #expect(round.elapsed >= .zero)
            if let remaining = round.remaining {
                #expect(remaining > .zero, "a running countdown reached zero without moving on")
            }
            #expect(round.buzzes.count <= game.teams.count)
        }
        if let remaining = game.remainingTime(at: now) {
            #expect(remaining >= .zero)
        }
        #expect(game.phase.hasTimer == (game.round?.remaining != nil))
        if let round = game.round {
            // Only a right answer or an overrule gives a question a winner; an overrule after the host ended the game
            // in the question keeps saying so.
            #expect(
                game.phase.hasTimer == (round.end == nil), "a question in play has not ended; one over says how")
            #expect(
                round.winner == nil || round.end == .answered || round.end == .overruled
                    || (round.end == .gameEnded && game.phase == .gameOver))
            #expect(round.end != .answered || round.winner != nil)
        }
        #expect(!game.isPaused || game.phase.hasTimer)
        #expect((game.phase == .gameOver) == (game.result != nil))
        for team in game.teams where game.result != nil {
            // Corrections after the end (overrule, adjustment) carry into the result.
            #expect(
                game.result?.standings.first { $0.team == team.name }?.points == team.score,
                "the result does not follow \(team.name)'s score")
        }
        let decoded = try JSONDecoder().decode(Game.self, from: JSONEncoder().encode(game))
        #expect(decoded == game, "snapshot round trip changed the state")
        // A restart takes every state that play reaches.
        #expect(game.inconsistency == nil, "\(game.inconsistency ?? "")")
    }
}

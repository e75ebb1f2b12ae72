import ShakyProtocol
import Testing

@testable import ShakyBoard

/// `Watch` events, `Sensor.Status` and `Settings.Get` replies turned into board state.
@Suite("Board state from the daemon's events")
struct BoardStateTests {
    static func tiles(_ text: String, fixed: Set<Int> = []) -> [ShakyAPI.Tile] {
        text.enumerated().map { ShakyAPI.Tile(text: String($1), letter: $1 != " ", fixed: fixed.contains($0)) }
    }

    static var openQuestion: BoardState {
        var state = BoardState()
        var status = ShakyAPI.Event(kind: .state)
        status.status = ShakyAPI.State(
            phase: .ready, paused: false, questionCount: 3, hintsUsed: 0, hintsLeft: 0,
            teams: [ShakyAPI.TeamScore(name: "Owls", score: 0), ShakyAPI.TeamScore(name: "Foxes", score: 2)],
            buzzes: [])
        state.apply(status, at: .zero)
        var round = ShakyAPI.Event(kind: .roundStarted)
        round.number = 1
        round.total = 3
        round.question = "Which animal has the longest neck?"
        round.tiles = tiles("FGEIRFA")
        round.points = 10
        round.remaining = 40
        state.apply(round, at: .zero)
        return state
    }

    @Test func aNewQuestionOpensTheBuzzersWithAFullCountdown() {
        let state = Self.openQuestion
        #expect(state.phase == .open)
        #expect(state.questionNumber == 1 && state.questionCount == 3)
        #expect(state.tiles.map(\.text).joined() == "FGEIRFA")
        #expect(state.countdownLength == 40 && state.remaining == 40)
        #expect(BoardLayout.phaseWords(state) == "Buzzers open")
    }

    @Test func theLetterAHintMovedIsHighlightedForAMomentOnly() {
        var state = Self.openQuestion
        var hint = ShakyAPI.Event(kind: .hint)
        hint.tiles = Self.tiles("GFEIRFA", fixed: [0])
        hint.points = 8
        hint.hintsUsed = 1
        state.apply(hint, at: .seconds(10))
        #expect(state.hintedTiles == [0])
        #expect(state.isHighlighted(tile: 0, at: .seconds(11)))
        #expect(!state.isHighlighted(tile: 1, at: .seconds(11)))
        #expect(!state.isHighlighted(tile: 0, at: .seconds(10) + BoardState.hintHighlight))
        let during = BoardLayout.render(state, width: 80, height: 24, now: .seconds(11)).text
        let after = BoardLayout.render(state, width: 80, height: 24, now: .seconds(14)).text
        #expect(during.contains("▲▲▲") && !after.contains("▲▲▲"))
        #expect(after.contains("═════"), "the fixed letter stays marked without colour")

        hint.tiles = Self.tiles("GIEFRFA", fixed: [0, 1])
        state.apply(hint, at: .seconds(20))
        #expect(state.hintedTiles == [1], "only the newly fixed letter is highlighted")
    }

    @Test func buzzesTeamUpAndJudgementsChangeThePhaseAndTheScores() {
        var state = Self.openQuestion
        var buzz = ShakyAPI.Event(kind: .buzz)
        buzz.team = "Owls"
        buzz.order = 1
        buzz.elapsed = 3.2
        buzz.remaining = 5
        state.apply(buzz, at: .zero)
        #expect(state.buzzes == [BoardState.Buzz(team: "Owls", order: 1, elapsed: 3.2)])
        var phase = ShakyAPI.Event(kind: .phaseChanged)
        phase.phase = "answering(Owls)"
        state.apply(phase, at: .zero)
        #expect(state.phase == .answering(team: "Owls"))
        #expect(BoardLayout.phaseWords(state) == "● Owls to answer")

        var judged = ShakyAPI.Event(kind: .judged)
        judged.team = "Owls"
        judged.given = "Giraffe"
        judged.correct = true
        judged.awarded = 10
        state.apply(judged, at: .zero)
        #expect(state.teams.first { $0.name == "Owls" }?.score == 10)

        var adjusted = ShakyAPI.Event(kind: .scoreAdjusted)
        adjusted.team = "Foxes"
        adjusted.delta = -2
        adjusted.score = 0
        state.apply(adjusted, at: .zero)
        #expect(state.teams.first { $0.name == "Foxes" }?.score == 0)

        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = "Owls"
        state.apply(revealed, at: .zero)
        #expect(state.phase == .roundOver && state.answer == "Giraffe" && state.roundWinner == "Owls")
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("● Owls got it! +10"))
        #expect(text.contains("● Owls: \"Giraffe\" RIGHT +10"))
    }

    @Test func theTimeRunningOutWithNoBuzzSaysSo() {
        var state = Self.openQuestion
        var tick = ShakyAPI.Event(kind: .tick)
        tick.phase = "indication"
        tick.remaining = 0
        state.apply(tick, at: .zero)
        #expect(BoardLayout.phaseWords(state) == "Time's up")
        var over = ShakyAPI.Event(kind: .phaseChanged)
        over.phase = "roundOver"
        state.apply(over, at: .zero)
        #expect(BoardLayout.phaseWords(state) == "Time's up")
    }

    @Test func noGameForgetsTheGameButKeepsTheSensorAndSound() {
        var state = Self.openQuestion
        state.apply(sensor: ShakyAPI.SensorStatus(state: .gone, shakes: 0, sensitivity: .medium))
        state.apply(settings: ShakyAPI.Settings(sound: false, volume: 1, sensitivity: .medium))
        state.apply(ShakyAPI.Event(kind: .state), at: .zero)
        #expect(state.phase == .noGame && state.teams.isEmpty && state.tiles.isEmpty)
        #expect(state.isSensorGone && state.isSoundSilent)
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("Sensor gone: hints by hand") && text.contains("Sound off"))

        var back = ShakyAPI.Event(kind: .sensor)
        back.sensorPresent = true
        state.apply(back, at: .zero)
        #expect(!state.isSensorGone)
    }

    @Test func theCountdownBarShrinksAndNeverTrapsOnStrangeTimes() {
        var state = Self.openQuestion
        let full = BoardLayout.countdownBar(state, width: 50)
        state.remaining = 10
        let later = BoardLayout.countdownBar(state, width: 50)
        #expect(full.filter { $0 == "█" }.count > later.filter { $0 == "█" }.count)
        #expect(later.hasSuffix(" 10 s"))
        for strange in [Double.nan, .infinity, -.infinity, -5, 1e300] {
            state.remaining = strange
            state.countdownLength = strange
            #expect(DisplayWidth.of(BoardLayout.countdownBar(state, width: 50)) <= 50)
        }
    }

    @Test func ranksShareAPlaceOnATie() {
        let ranked = BoardLayout.ranked([
            BoardState.Team(name: "A", score: 5), BoardState.Team(name: "B", score: 9),
            BoardState.Team(name: "C", score: 5), BoardState.Team(name: "D", score: 1),
        ])
        #expect(ranked.map(\.team.name) == ["B", "A", "C", "D"])
        #expect(ranked.map(\.rank) == [1, 2, 2, 4])
        #expect(ranked.map(\.index) == [1, 0, 2, 3], "a team keeps its join-order colour and symbol")
    }

    @Test func eightTeamsHaveEightDistinctSymbolsAndColours() {
        let marks = (0..<8).map { TeamMark(index: $0) }
        #expect(Set(marks.map(\.symbol)).count == 8)
        #expect(Set(marks.map(\.colourName)).count == 8)
        #expect(Set(marks.map(\.xterm256)).count == 8)
        #expect(TeamMark(index: 8) == TeamMark(index: 0))
    }
}

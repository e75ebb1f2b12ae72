import ShakyProtocol
import Testing

@testable import ShakyBoard

/// What a board that connects late, or comes back after a daemon restart, shows from the state it reads first.
@Suite("The board on connecting or reconnecting")
struct BoardReconnectTests {
    static let teams = [ShakyAPI.TeamScore(name: "Owls", score: 0), ShakyAPI.TeamScore(name: "Foxes", score: 10)]

    /// A board that read `status` as its first event.
    static func board(_ status: ShakyAPI.State) -> BoardState {
        var state = BoardState()
        state.connection = .connected
        state.apply(ShakyAPI.Event(kind: .state, status: status), at: .zero)
        return state
    }

    static func openQuestion(remaining: Double, countdownLength: Double?, paused: Bool = false) -> ShakyAPI.State {
        ShakyAPI.State(
            phase: .indication, paused: paused, questionNumber: 1, questionCount: 3, question: "Longest neck?",
            tiles: BoardStateTests.tiles("FGEIRFA"), points: 10, hintsUsed: 0, hintsLeft: 3, remaining: remaining,
            countdownLength: countdownLength, teams: teams, buzzes: [])
    }

    @Test("The countdown bar is drawn to the countdown's length the state says, not full from what is left")
    func theCountdownBarIsToScale() {
        let state = Self.board(Self.openQuestion(remaining: 7, countdownLength: 60))
        #expect(state.countdownLength == 60)
        let bar = BoardLayout.countdownBar(state, width: 65)
        // 60 columns of bar for 60 s: 7 s left fills 7.
        #expect(bar == String(repeating: "█", count: 7) + String(repeating: "░", count: 53) + " 7 s")
    }

    @Test("A daemon that does not say the countdown's length keeps today's bar: full from what is left")
    func anOlderDaemonStartsTheBarFull() {
        let state = Self.board(Self.openQuestion(remaining: 7, countdownLength: nil))
        #expect(state.countdownLength == 7)
        #expect(BoardLayout.countdownBar(state, width: 65) == String(repeating: "█", count: 60) + " 7 s")
    }

    @Test("The answers judged on the question are shown from the state, during and after it")
    func theJudgementsAreRestored() {
        var status = Self.openQuestion(remaining: 40, countdownLength: 60)
        status.phase = .answering
        status.teamUp = "Foxes"
        status.buzzes = [
            ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 2, points: 10),
            ShakyAPI.BuzzEntry(team: "Foxes", order: 2, elapsed: 3, points: 10),
        ]
        status.judgements = [ShakyAPI.JudgementEntry(team: "Owls", given: "Paris", correct: false, awarded: 0)]
        var state = Self.board(status)
        #expect(state.judgements == [BoardState.Judgement(team: "Owls", given: "Paris", isCorrect: false)])
        var text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("● Owls: “Paris” WRONG"), "\(text)")

        status.phase = .roundOver
        status.teamUp = nil
        status.tiles = nil
        status.remaining = nil
        status.countdownLength = nil
        status.answer = "Giraffe"
        status.roundWinner = "Foxes"
        status.roundEnd = .answered
        status.judgements?.append(ShakyAPI.JudgementEntry(team: "Foxes", given: "Giraffe", correct: true, awarded: 10))
        state = Self.board(status)
        text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("● Owls: “Paris” WRONG"), "\(text)")
        #expect(text.contains("Foxes: “Giraffe” RIGHT +10"), "\(text)")
        #expect(text.contains("Foxes got it! +10"), "the winner's points come from its judgement")
    }

    @Test("A daemon that sends no judgements leaves none, as before")
    func anOlderDaemonSendsNoJudgements() {
        #expect(Self.board(Self.openQuestion(remaining: 40, countdownLength: 60)).judgements.isEmpty)
    }

    @Test(
        "A paused game says how the host goes on, by command or in shaky play, in fewer words on a small screen",
        arguments: [
            (40, "Paused — shaky resume, or p in play"), (42, "Paused — shaky resume, or p in play"),
            (43, "Paused — shaky resume, or p in shaky play"), (53, "Paused — shaky resume, or p in shaky play"),
            (54, "Paused — resume with shaky resume or p in shaky play"),
            (200, "Paused — resume with shaky resume or p in shaky play"),
        ])
    func aPausedGameSaysHowToResume(width: Int, words: String) {
        let state = Self.board(Self.openQuestion(remaining: 7, countdownLength: 60, paused: true))
        let notice = BoardLayout.notices(state, width: width).first { $0.hasPrefix("Paused") }
        #expect(notice == words)
        let lines = BoardLayout.render(state, width: width, height: 24, now: .zero).text.split(separator: "\n")
        #expect(lines.contains { $0.contains(notice ?? "?") }, "the notice is drawn whole")
    }

    @Test("A game the host ended during its last question says so, not that it ended after it")
    func aGameEndedDuringItsLastQuestionSaysSo() {
        func gameOver(endedEarly: Bool, roundEnd: ShakyAPI.State.RoundEnd?) -> String {
            let status = ShakyAPI.State(
                phase: .gameOver, paused: false, questionNumber: 3, questionCount: 3, hintsUsed: 0, hintsLeft: 0,
                teams: Self.teams, buzzes: [], roundEnd: roundEnd,
                result: ShakyAPI.Result(
                    standings: [
                        ShakyAPI.Standing(
                            team: "Foxes", points: 10, rank: 1, correctAnswers: 1, hintsUsed: 0, buzzes: 1),
                        ShakyAPI.Standing(team: "Owls", points: 0, rank: 2, correctAnswers: 0, hintsUsed: 0, buzzes: 0),
                    ], winners: ["Foxes"], questionsPlayed: 3, questionCount: 3, endedEarly: endedEarly))
            return BoardLayout.render(Self.board(status), width: 80, height: 24, now: .zero).text
        }
        let during = gameOver(endedEarly: true, roundEnd: .gameEnded)
        #expect(during.contains("Ended during question 3 of 3"), "\(during)")
        #expect(!during.contains("Ended after"))
        #expect(gameOver(endedEarly: false, roundEnd: .answered).contains("3 of 3 questions played"))
    }

    @Test(
        "A game ended before its first question says so as shaky status does, not that it ended after 0 questions",
        arguments: [(80, 24), (40, 12)])
    func aGameEndedBeforeItsFirstQuestionSaysSo(_ width: Int, _ height: Int) {
        let status = ShakyAPI.State(
            phase: .gameOver, paused: false, questionCount: 10, hintsUsed: 0, hintsLeft: 0, teams: Self.teams,
            buzzes: [],
            result: ShakyAPI.Result(
                standings: [
                    ShakyAPI.Standing(team: "Owls", points: 0, rank: 1, correctAnswers: 0, hintsUsed: 0, buzzes: 0),
                    ShakyAPI.Standing(team: "Foxes", points: 0, rank: 1, correctAnswers: 0, hintsUsed: 0, buzzes: 0),
                ], winners: [], questionsPlayed: 0, questionCount: 10, endedEarly: true))
        let text = BoardLayout.render(Self.board(status), width: width, height: height, now: .zero).text
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Game over: no winner"), "\(text)")
        #expect(words.contains("Ended before its first question, so not kept in the history"), "\(text)")
        #expect(!text.contains("Ended after"), "\(text)")
    }

    /// How buzzing reopened on a question of 45 s to buzz and 20 s to answer, teams A, B and C.
    enum Reopening: String, CaseIterable, CustomTestStringConvertible {
        case everyBuzzUndone, classicWrongAnswer, overruleReopens
        var testDescription: String { rawValue }
    }

    /// What a board watching since the question opened saw, as the daemon sends it: the question at 0 s, A buzzing
    /// at 3 s (42 s left to buzz), A called up to answer, then buzzing reopening with those 42 s at 10 s.
    static func watched(_ reopening: Reopening) -> BoardState {
        var state = board(
            ShakyAPI.State(
                phase: .ready, paused: false, questionCount: 10, hintsUsed: 0, hintsLeft: 0,
                teams: ["A", "B", "C"].map { ShakyAPI.TeamScore(name: $0, score: 0) }, buzzes: []))
        func event(_ kind: ShakyAPI.Event.Kind, at second: Int, _ fill: (inout ShakyAPI.Event) -> Void = { _ in }) {
            var event = ShakyAPI.Event(kind: kind)
            fill(&event)
            state.apply(event, at: .seconds(second))
        }
        event(.phaseChanged, at: 0) { $0.phase = "indication" }
        event(.roundStarted, at: 0) {
            $0.number = 1
            $0.total = 10
            $0.question = "Longest neck?"
            $0.tiles = BoardStateTests.tiles("FGEIRFA")
            $0.points = 10
            $0.remaining = 45
        }
        event(.tick, at: 0) {
            $0.phase = "indication"
            $0.remaining = 45
        }
        event(.buzz, at: 3) {
            $0.team = "A"
            $0.order = 1
            $0.elapsed = 3
            $0.remaining = 42
        }
        event(.phaseChanged, at: 3) { $0.phase = "answering(A)" }
        event(.teamUp, at: 3) {
            $0.team = "A"
            $0.remaining = 20
        }
        event(.tick, at: 3) {
            $0.phase = "answering(A)"
            $0.remaining = 20
        }
        switch reopening {
        case .everyBuzzUndone:
            event(.buzzUndone, at: 10) { $0.team = "A" }
        case .classicWrongAnswer:
            event(.judged, at: 10) {
                $0.team = "A"
                $0.given = "zzz"
                $0.correct = false
                $0.awarded = 0
            }
        case .overruleReopens:
            event(.judged, at: 8) {
                $0.team = "A"
                $0.given = "Girafe"
                $0.correct = true
                $0.awarded = 10
            }
            event(.answerRevealed, at: 8) {
                $0.answer = "Giraffe"
                $0.winner = "A"
                $0.roundEnd = .answered
            }
            event(.overruled, at: 10) {
                $0.team = "A"
                $0.correct = false
                $0.delta = -10
                $0.score = 0
            }
        }
        event(.phaseChanged, at: 10) { $0.phase = "indication" }
        event(.tick, at: 10) {
            $0.phase = "indication"
            $0.remaining = 42
        }
        return state
    }

    @Test(
        "Buzzing reopened: the bar is the time to buzz, as on a board that connects afterwards, not the time left",
        arguments: Reopening.allCases)
    func aReopenedCountdownIsDrawnToTheSameLengthOnEveryBoard(_ reopening: Reopening) {
        let watching = Self.watched(reopening)
        // The state the daemon gives a board connecting 25 s later, with 17 s left: the length is the time to buzz.
        // 17 s of 45 fill 26 of the bar's 70 columns.
        var status = Self.openQuestion(remaining: 17, countdownLength: 45)
        status.teams = ["A", "B", "C"].map { ShakyAPI.TeamScore(name: $0, score: 0) }
        let fresh = Self.board(status)
        #expect(watching.phase == .open && watching.countdownLength == 45)
        let now = Duration.seconds(35)
        let bar = BoardLayout.countdownBar(watching.counted(at: now), width: 76)
        #expect(bar == BoardLayout.countdownBar(fresh, width: 76))
        #expect(bar == String(repeating: "█", count: 26) + String(repeating: "░", count: 44) + " 17 s")
    }

    @Test("A team called up after buzzing reopened has its time to answer as the bar, and the reopen its time to buzz")
    func theNextCountdownsKeepTheirOwnLengths() {
        var state = Self.watched(.classicWrongAnswer)
        var phase = ShakyAPI.Event(kind: .phaseChanged, phase: "answering(B)")
        state.apply(phase, at: .seconds(12))
        state.apply(ShakyAPI.Event(kind: .teamUp, team: "B", remaining: 20), at: .seconds(12))
        state.apply(ShakyAPI.Event(kind: .tick, remaining: 20, phase: "answering(B)"), at: .seconds(12))
        #expect(state.countdownLength == 20)
        phase.phase = "indication"
        state.apply(phase, at: .seconds(15))
        state.apply(ShakyAPI.Event(kind: .tick, remaining: 40, phase: "indication"), at: .seconds(15))
        #expect(state.countdownLength == 45)
    }

    @Test("A board that read the state while a team answered, not knowing the time to buzz, starts a reopened bar full")
    func aReopenWithAnUnknownTimeToBuzzStartsFull() {
        var status = Self.openQuestion(remaining: 12, countdownLength: 20)
        status.phase = .answering
        status.teamUp = "Owls"
        status.buzzes = [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 3, points: 10)]
        var state = Self.board(status)
        #expect(state.countdownLength == 20)
        state.apply(ShakyAPI.Event(kind: .phaseChanged, phase: "indication"), at: .seconds(8))
        state.apply(ShakyAPI.Event(kind: .tick, remaining: 42, phase: "indication"), at: .seconds(8))
        #expect(state.countdownLength == 42)
    }
}

import Foundation
import ShakyProtocol
import Testing

@testable import ShakyBoard

/// `Watch` events and `Sensor.Status`, `Settings.Get` and `Buzzers.List` replies turned into board state.
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

    @Test func theCountdownRunsOnTheBoardsClockFromTheDaemonsTickAndAPauseFreezesIt() {
        var state = Self.openQuestion
        var countdown = ShakyAPI.Event(kind: .tick)
        countdown.phase = "indication"
        countdown.remaining = 40
        state.apply(countdown, at: .seconds(2))
        // No tick each second: the board counts, and redraws at each whole second.
        #expect(BoardLayout.countdownBar(state.counted(at: .milliseconds(5_200)), width: 20).hasSuffix(" 37 s"))
        #expect(BoardLayout.render(state, width: 80, height: 24, now: .milliseconds(5_200)).text.contains(" 37 s"))
        #expect(state.nextTimedChange(after: .milliseconds(5_200)) == .seconds(6))
        state.apply(ShakyAPI.Event(kind: .paused), at: .milliseconds(12_500))
        #expect(state.remaining == 29.5)
        #expect(BoardLayout.render(state, width: 80, height: 24, now: .seconds(100)).text.contains(" 30 s"))
        #expect(state.nextTimedChange(after: .seconds(100)) == nil)
        // Resumed: the daemon's tick says the time left from then on.
        state.apply(ShakyAPI.Event(kind: .resumed), at: .seconds(200))
        countdown.remaining = 29.5
        state.apply(countdown, at: .seconds(200))
        #expect(BoardLayout.render(state, width: 80, height: 24, now: .seconds(209)).text.contains(" 21 s"))
        // A suspend: the board's clock ran on through it; the daemon's pause says what the game has left.
        state.apply(ShakyAPI.Event(kind: .paused, remaining: 17.2), at: .seconds(900))
        #expect(BoardLayout.render(state, width: 80, height: 24, now: .seconds(901)).text.contains(" 18 s"))
        state.apply(ShakyAPI.Event(kind: .resumed), at: .seconds(950))
        countdown.remaining = 17.2
        state.apply(countdown, at: .seconds(950))
        // The question over, nothing counts.
        state.apply(ShakyAPI.Event(kind: .answerRevealed, answer: "GIRAFFE"), at: .seconds(210))
        #expect(state.counted(at: .seconds(215)).remaining == nil)
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
        #expect(state.buzzes == [BoardState.Buzz(team: "Owls", order: 1, elapsed: 3.2, points: 10)])
        var phase = ShakyAPI.Event(kind: .phaseChanged)
        phase.phase = "answering(Owls)"
        state.apply(phase, at: .zero)
        #expect(state.phase == .answering(team: "Owls"))
        #expect(BoardLayout.phaseWords(state) == "● Owls to answer for 10 points")

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
        adjusted.reason = "shouted the answer"
        state.apply(adjusted, at: .zero)
        #expect(state.teams.first { $0.name == "Foxes" }?.score == 0)
        // The room sees why a score changed, for a few seconds.
        let changed = BoardLayout.render(state, width: 80, height: 24, now: .seconds(1)).text
        #expect(changed.contains("Score: ■ Foxes -2: shouted the answer"), "\(changed)")
        #expect(state.nextTimedChange(after: .seconds(1)) == BoardState.scoreChangeNoticeTime)
        let later = BoardLayout.render(state, width: 80, height: 24, now: BoardState.scoreChangeNoticeTime).text
        #expect(!later.contains("shouted the answer"), "\(later)")

        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = "Owls"
        state.apply(revealed, at: .zero)
        #expect(state.phase == .roundOver && state.answer == "Giraffe" && state.roundWinner == "Owls")
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("● Owls got it! +10"))
        #expect(text.contains("● Owls: “Giraffe” RIGHT +10"))
    }

    @Test func theTeamUpAnswersForThePointsFrozenAtItsBuzzNotTheHintedDownWorth() {
        var state = Self.openQuestion
        var buzz = ShakyAPI.Event(kind: .buzz)
        buzz.team = "Foxes"
        buzz.order = 1
        state.apply(buzz, at: .zero)
        var hint = ShakyAPI.Event(kind: .hint)
        hint.tiles = Self.tiles("GFEIRFA", fixed: [0])
        hint.points = 8
        state.apply(hint, at: .seconds(1))
        var phase = ShakyAPI.Event(kind: .phaseChanged)
        phase.phase = "answering(Foxes)"
        state.apply(phase, at: .seconds(2))
        #expect(BoardLayout.phaseWords(state) == "■ Foxes to answer for 10 points")
    }

    @Test func anOverruleMovesTheScoreAndTheVerdictAndAnUndoneBuzzLeavesTheOrder() {
        var state = Self.openQuestion
        for (order, team) in ["Owls", "Foxes"].enumerated() {
            var buzz = ShakyAPI.Event(kind: .buzz)
            buzz.team = team
            buzz.order = order + 1
            state.apply(buzz, at: .zero)
        }
        var undone = ShakyAPI.Event(kind: .buzzUndone)
        undone.team = "Owls"
        state.apply(undone, at: .zero)
        #expect(state.buzzes.map(\.team) == ["Foxes"] && state.buzzes.first?.order == 1)

        var judged = ShakyAPI.Event(kind: .judged)
        judged.team = "Foxes"
        judged.given = "Girafe"
        judged.correct = false
        judged.awarded = 0
        state.apply(judged, at: .zero)
        var overruled = ShakyAPI.Event(kind: .overruled)
        overruled.team = "Foxes"
        overruled.correct = true
        overruled.delta = 10
        overruled.score = 12
        state.apply(overruled, at: .zero)
        #expect(state.teams.first { $0.name == "Foxes" }?.score == 12)
        #expect(
            state.judgements == [BoardState.Judgement(team: "Foxes", given: "Girafe", isCorrect: true, awarded: 10)])

        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = "Foxes"
        state.apply(revealed, at: .zero)
        overruled.correct = false
        overruled.delta = -10
        overruled.score = 2
        state.apply(overruled, at: .zero)
        #expect(state.teams.first { $0.name == "Foxes" }?.score == 2)
        #expect(state.roundWinner == nil && state.answer == nil, "play goes on, so the answer is not out")
        #expect(state.judgements.last?.isCorrect == false)
    }

    @Test("A time-out the host overruled to right says it was out of time and counted as right")
    func anOverruledTimeOutSaysItCountsAsRight() {
        var state = Self.openQuestion
        var judged = ShakyAPI.Event(kind: .judged)
        judged.team = "Owls"
        judged.correct = false
        judged.awarded = 0
        state.apply(judged, at: .zero)
        var overruled = ShakyAPI.Event(kind: .overruled)
        overruled.team = "Owls"
        overruled.correct = true
        overruled.timedOut = true
        overruled.delta = 10
        overruled.score = 10
        state.apply(overruled, at: .zero)
        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = "Owls"
        state.apply(revealed, at: .zero)
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("Owls: out of time, counted as right +10"))
        #expect(!text.contains("Owls: out of time\n"))
    }

    @Test("A board that did not see the answer judged (it connected later) shows an overrule with its points")
    func anOverruleOfAJudgementTheBoardDidNotSeeShowsItsPoints() {
        var state = BoardState()
        var event = ShakyAPI.Event(kind: .state)
        event.status = ShakyAPI.State(
            phase: .roundOver, paused: false, questionNumber: 1, questionCount: 3, question: "Longest neck?",
            hintsUsed: 0, hintsLeft: 0,
            teams: [ShakyAPI.TeamScore(name: "Owls", score: 0), ShakyAPI.TeamScore(name: "Foxes", score: 0)],
            buzzes: [ShakyAPI.BuzzEntry(team: "Owls", order: 1, elapsed: 2, points: 10)], answer: "Giraffe",
            roundEnd: .skipped)
        state.apply(event, at: .zero)
        var overruled = ShakyAPI.Event(kind: .overruled)
        overruled.team = "Owls"
        overruled.given = "Girafe"
        overruled.correct = true
        overruled.delta = 10
        overruled.score = 10
        state.apply(overruled, at: .zero)
        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = "Owls"
        revealed.roundEnd = .overruled
        state.apply(revealed, at: .zero)
        #expect(
            state.judgements == [BoardState.Judgement(team: "Owls", given: "Girafe", isCorrect: true, awarded: 10)])
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("Owls got it! +10"))
    }

    @Test("On the podium a long name stays over its own pillar, apart from the next one's edge", arguments: [80, 200])
    func aLongNameOnThePodiumKeepsApartFromTheNextPillar(width: Int) {
        var state = BoardState()
        var event = ShakyAPI.Event(kind: .state)
        let names = ["Owls", "Foxes", "Les Hiboux Étonnés du No"]
        event.status = ShakyAPI.State(
            phase: .gameOver, paused: false, questionNumber: 3, questionCount: 3, hintsUsed: 0, hintsLeft: 0,
            teams: names.map { ShakyAPI.TeamScore(name: $0, score: 0) }, buzzes: [],
            result: ShakyAPI.Result(
                standings: names.enumerated().map { index, name in
                    ShakyAPI.Standing(
                        team: name, points: 30 - 10 * index, rank: index + 1, correctAnswers: 0, hintsUsed: 0,
                        buzzes: 0)
                }, winners: ["Owls"], questionsPlayed: 3, questionCount: 3, endedEarly: false))
        state.apply(event, at: .zero)
        let lines = BoardLayout.render(state, width: width, height: 24, now: .zero).text.split(separator: "\n")
        let label = lines.first { $0.contains("Les Hiboux") && $0.contains("│") }
        #expect(label != nil, "the third's name is drawn beside the first's pillar: \(lines.joined(separator: "\n"))")
        #expect(label.map { !$0.contains("│▲") } ?? true, "\(label ?? "")")
    }

    @Test("After the game is over, an overrule and the corrected result it brings show the new winner")
    func aCorrectedResultShowsTheNewWinner() {
        var state = Self.openQuestion
        func standing(_ team: String, _ points: Int, _ rank: Int) -> ShakyAPI.Standing {
            ShakyAPI.Standing(
                team: team, points: points, rank: rank, correctAnswers: points > 0 ? 1 : 0, hintsUsed: 0, buzzes: 1)
        }
        var over = ShakyAPI.Event(kind: .gameOver)
        over.result = ShakyAPI.Result(
            standings: [standing("Owls", 10, 1), standing("Foxes", 2, 2)], winners: ["Owls"], questionsPlayed: 3,
            questionCount: 3, endedEarly: false)
        state.apply(over, at: .zero)
        #expect(BoardLayout.render(state, width: 80, height: 24, now: .zero).text.contains("Owls wins!"))

        var overruled = ShakyAPI.Event(kind: .overruled)
        overruled.team = "Foxes"
        overruled.correct = true
        overruled.delta = 10
        overruled.score = 12
        state.apply(overruled, at: .zero)
        var corrected = ShakyAPI.Event(kind: .gameOver)
        corrected.corrected = true
        corrected.result = ShakyAPI.Result(
            standings: [standing("Foxes", 12, 1), standing("Owls", 10, 2)], winners: ["Foxes"], questionsPlayed: 3,
            questionCount: 3, endedEarly: false)
        state.apply(corrected, at: .zero)
        #expect(state.phase == .gameOver)
        #expect(state.teams.first { $0.name == "Foxes" }?.score == 12)
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("Foxes wins!"))
        #expect(!text.contains("Owls wins!"))
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

    /// `openQuestion` after its answer was revealed, won by `winner`, ended as `end`, after a buzz when `buzzed`.
    static func revealed(
        _ end: ShakyAPI.Event.RoundEnd?, winner: String? = nil, buzzed: Bool = false
    ) -> BoardState {
        var state = openQuestion
        if buzzed {
            var buzz = ShakyAPI.Event(kind: .buzz)
            buzz.team = "Owls"
            buzz.order = 1
            state.apply(buzz, at: .zero)
        }
        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.winner = winner
        revealed.roundEnd = end
        state.apply(revealed, at: .zero)
        var over = ShakyAPI.Event(kind: .phaseChanged)
        over.phase = "roundOver"
        state.apply(over, at: .zero)
        return state
    }

    @Test("A question the host skipped with nobody buzzed says Skipped, not Time's up")
    func aSkipSaysSkipped() {
        let state = Self.revealed(.skipped)
        #expect(state.roundEnd == .skipped)
        #expect(BoardLayout.phaseWords(state) == "Skipped")
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("Skipped") && text.contains("Nobody got it"))
        #expect(!text.contains("Time's up"))
    }

    @Test(
        "Each way a question ends has its words",
        arguments: [
            (ShakyAPI.Event.RoundEnd.timeUp, nil, "Time's up"), (.answered, "Owls", "Round over"),
            (.wrongAnswers, nil, "Round over"), (.gameEnded, nil, "Game ended"),
            (.overruled, "Owls", "Overruled by the host"), (.overruled, nil, "Overruled by the host"),
        ] as [(ShakyAPI.Event.RoundEnd, String?, String)])
    func eachEndHasItsWords(end: ShakyAPI.Event.RoundEnd, winner: String?, words: String) {
        #expect(BoardLayout.phaseWords(Self.revealed(end, winner: winner)) == words)
        #expect(BoardLayout.phaseWords(Self.revealed(end, winner: winner, buzzed: true)) == words)
    }

    @Test("A question skipped or ended while paused is no longer paused: the board says how it ended")
    func aSkipWhilePausedSaysSkippedNotPaused() {
        var state = Self.openQuestion
        state.apply(ShakyAPI.Event(kind: .paused), at: .zero)
        #expect(BoardLayout.phaseWords(state) == "Paused")
        var revealed = ShakyAPI.Event(kind: .answerRevealed)
        revealed.answer = "Giraffe"
        revealed.roundEnd = .skipped
        state.apply(revealed, at: .zero)
        #expect(!state.isPaused)
        #expect(BoardLayout.phaseWords(state) == "Skipped")
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(!text.contains("Paused"))

        state = Self.openQuestion
        state.apply(ShakyAPI.Event(kind: .paused), at: .zero)
        var over = ShakyAPI.Event(kind: .gameOver)
        over.result = ShakyAPI.Result(
            standings: [], winners: [], questionsPlayed: 1, questionCount: 3, endedEarly: true)
        state.apply(over, at: .zero)
        #expect(!state.isPaused)
        #expect(BoardLayout.phaseWords(state) == "Game over")
    }

    @Test("A daemon that does not say how a question ended: no buzz reads as the time running out, as before")
    func withoutTheEndTheBoardGuessesAsBefore() {
        #expect(BoardLayout.phaseWords(Self.revealed(nil)) == "Time's up")
        #expect(BoardLayout.phaseWords(Self.revealed(nil, buzzed: true)) == "Round over")
    }

    @Test("A board that connects after the question ended reads how it ended from the state")
    func theStateSaysHowTheQuestionEnded() {
        var state = BoardState()
        var event = ShakyAPI.Event(kind: .state)
        event.status = ShakyAPI.State(
            phase: .roundOver, paused: false, questionNumber: 1, questionCount: 3, question: "Longest neck?",
            hintsUsed: 0, hintsLeft: 0, teams: [ShakyAPI.TeamScore(name: "Owls", score: 0)], buzzes: [],
            answer: "Giraffe", roundEnd: .skipped)
        state.apply(event, at: .zero)
        #expect(state.roundEnd == .skipped)
        #expect(BoardLayout.phaseWords(state) == "Skipped")
        event.status?.roundEnd = .timeUp
        state.apply(event, at: .zero)
        #expect(BoardLayout.phaseWords(state) == "Time's up")
    }

    @Test("How the last question ended is forgotten when play goes on or the next question opens")
    func theEndIsForgottenWhenPlayGoesOn() {
        var state = Self.revealed(.answered, winner: "Owls", buzzed: true)
        var overruled = ShakyAPI.Event(kind: .overruled)
        overruled.team = "Owls"
        overruled.correct = false
        state.apply(overruled, at: .zero)
        #expect(state.roundEnd == nil, "a right answer overruled to wrong puts the question back in play")

        state = Self.revealed(.skipped)
        var next = ShakyAPI.Event(kind: .roundStarted)
        next.number = 2
        next.tiles = Self.tiles("NILO")
        state.apply(next, at: .zero)
        #expect(state.roundEnd == nil)
        #expect(BoardLayout.phaseWords(state) == "Buzzers open")
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

    static func buzzer(
        _ kind: ShakyAPI.ButtonEvent.Kind, team: String? = nil, device: String, key: String? = nil
    )
        -> ShakyAPI.Event
    {
        var event = ShakyAPI.Event(kind: .buzzer)
        event.buzzer = ShakyAPI.ButtonEvent(kind: kind, team: team, keyName: key, device: device)
        return event
    }

    static let buttonList = ShakyAPI.BuzzersInterface.ListReply(
        devices: [
            ShakyAPI.BuzzerDevice(
                path: "/dev/input/event5", name: "Logitech Buzz(tm) Controller V1", identity: "usb-buzz", kind: "buzz",
                keys: [], lights: [], present: true),
            ShakyAPI.BuzzerDevice(
                path: "/dev/input/event3", name: "USB Keyboard", identity: "usb-kbd", kind: "keyboard", keys: [],
                lights: [], present: true),
        ],
        assignments: [
            ShakyAPI.ButtonAssignment(team: "Owls", device: "usb-buzz", key: 0x2c5, keyName: "BTN_TRIGGER_HAPPY6")
        ],
        joining: [])

    @Test func theListNamesTheButtonsAndJoinsKeepThemCurrent() {
        var state = BoardState()
        state.apply(buzzers: Self.buttonList)
        #expect(state.buttonWords(team: "Owls") == "Buzz! handset 2 (red)")
        #expect(state.buttonWords(team: "Foxes") == nil)

        state.apply(Self.buzzer(.joined, team: "Foxes", device: "usb-kbd", key: "KEY_A"), at: .zero)
        #expect(state.buttonWords(team: "Foxes") == "keyboard: A")
        // Taking a button another team had takes it from that team.
        state.apply(Self.buzzer(.joined, team: "Yaks", device: "usb-kbd", key: "KEY_A"), at: .zero)
        #expect(state.buttonWords(team: "Foxes") == nil)
        #expect(state.buttonWords(team: "Yaks") == "keyboard: A")
        // A device never listed still reads as words.
        state.apply(Self.buzzer(.joined, team: "Bats", device: "gpio", key: "KEY_SPACE"), at: .zero)
        #expect(state.buttonWords(team: "Bats") == "button: Space")
        // Presses and a team asked to press change no button.
        state.apply(Self.buzzer(.pressed, team: "Owls", device: "usb-kbd", key: "KEY_A"), at: .zero)
        #expect(state.buttonWords(team: "Yaks") == "keyboard: A")
    }

    @Test("A device name the kernel pads (DragonRise's) reads as words: no runs of spaces, none before the colon")
    func aPaddedDeviceNameReadsAsWords() {
        var state = BoardState()
        var list = Self.buttonList
        list.devices.append(
            ShakyAPI.BuzzerDevice(
                path: "/dev/input/event31", name: "DragonRise Inc.   Generic   USB  Joystick  ", identity: "usb-arcade",
                kind: "arcade", keys: [], lights: [], present: true))
        list.assignments.append(
            ShakyAPI.ButtonAssignment(team: "Zoë", device: "usb-arcade", key: 0x120, keyName: "BTN_TRIGGER"))
        state.apply(buzzers: list)
        #expect(state.buttonWords(team: "Zoë") == "DragonRise Inc. Generic USB Joystick: button trigger")
    }

    @Test("Buttons on twin devices are told apart by the devices' order of identity (their USB ports)")
    func twinDevicesAreNumbered() {
        var state = BoardState()
        let joystick = "DragonRise Inc.   Generic   USB  Joystick  "
        let list = ShakyAPI.BuzzersInterface.ListReply(
            devices: [
                ("usb-0:3:1.0", joystick, "arcade"), ("usb-0:2:1.0", joystick, "arcade"),
                ("usb-0:4:1.0", "USB Keyboard", "keyboard"), ("usb-0:5:1.0", "Other Keyboard", "keyboard"),
                ("usb-0:6:1.0", "Logitech Buzz(tm) Controller V1", "buzz"),
                ("usb-0:7:1.0", "Logitech Buzz(tm) Controller V1", "buzz"), ("usb-0:8:1.0", "Lone Pad", "gamepad"),
            ].map {
                ShakyAPI.BuzzerDevice(
                    path: "/dev/input/event1", name: $0.1, identity: $0.0, kind: $0.2, keys: [], lights: [],
                    present: true)
            },
            assignments: [
                ("Owls", "usb-0:3:1.0", 0x120, "BTN_TRIGGER"), ("Foxes", "usb-0:2:1.0", 0x120, "BTN_TRIGGER"),
                ("Yaks", "usb-0:4:1.0", 30, "KEY_A"), ("Bats", "usb-0:5:1.0", 30, "KEY_A"),
                ("Emus", "usb-0:7:1.0", 0x2c0, "BTN_TRIGGER_HAPPY1"), ("Cats", "usb-0:8:1.0", 0x120, "BTN_TRIGGER"),
            ].map { ShakyAPI.ButtonAssignment(team: $0.0, device: $0.1, key: $0.2, keyName: $0.3) },
            joining: [])
        state.apply(buzzers: list)
        #expect(state.buttonWords(team: "Foxes") == "DragonRise Inc. Generic USB Joystick 1: button trigger")
        #expect(state.buttonWords(team: "Owls") == "DragonRise Inc. Generic USB Joystick 2: button trigger")
        #expect(state.buttonWords(team: "Yaks") == "keyboard 1: A")
        #expect(state.buttonWords(team: "Bats") == "keyboard 2: A")
        #expect(state.buttonWords(team: "Emus") == "Buzz! 2 handset 1 (red)")
        #expect(state.buttonWords(team: "Cats") == "Lone Pad: button trigger")
        // A twin unplugged keeps its number: the room still knows which one to plug back in.
        state.apply(Self.buzzer(.deviceGone, device: "usb-0:3:1.0"), at: .zero)
        #expect(state.buttonWords(team: "Owls") == "DragonRise Inc. Generic USB Joystick 2: button trigger (unplugged)")
    }

    @Test func aClearSeenInTheNextListForgetsTheButton() {
        var state = BoardState()
        state.apply(buzzers: Self.buttonList)
        var cleared = Self.buttonList
        cleared.assignments = []
        state.apply(buzzers: cleared)
        #expect(state.buttons.isEmpty && state.buttonWords(team: "Owls") == nil)
        #expect(state.knowsButtons)
    }

    @Test func aDeviceGoneMarksItsTeamsUnpluggedUntilItIsBack() {
        var state = BoardState()
        state.apply(buzzers: Self.buttonList)
        state.apply(Self.buzzer(.deviceGone, device: "usb-buzz"), at: .zero)
        #expect(state.buttonWords(team: "Owls") == "Buzz! handset 2 (red) (unplugged)")
        // The buttons outlive the game being reset.
        state.apply(ShakyAPI.Event(kind: .state), at: .zero)
        #expect(state.buttonWords(team: "Owls") == "Buzz! handset 2 (red) (unplugged)")
        state.apply(Self.buzzer(.deviceBack, device: "usb-buzz"), at: .zero)
        #expect(state.buttonWords(team: "Owls") == "Buzz! handset 2 (red)")
    }

    @Test func theReadyScreenShowsEachTeamsButtonOrHowToJoin() {
        var state = BoardState()
        var status = ShakyAPI.Event(kind: .state)
        status.status = ShakyAPI.State(
            phase: .ready, paused: false, questionCount: 3, hintsUsed: 0, hintsLeft: 0,
            teams: [ShakyAPI.TeamScore(name: "Owls", score: 0), ShakyAPI.TeamScore(name: "Foxes", score: 0)],
            buzzes: [])
        state.apply(status, at: .zero)
        let before = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(!before.contains("press your button"))
        state.apply(buzzers: Self.buttonList)
        let text = BoardLayout.render(state, width: 80, height: 24, now: .zero).text
        #expect(text.contains("● Owls · Buzz! handset 2 (red)"))
        #expect(text.contains("■ Foxes · press your button to join"))
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

    @Test(arguments: [(80, 24), (40, 20)])
    func aQuestionOnSeveralLinesKeepsThem(width: Int, height: Int) {
        var state = Self.openQuestion
        state.question = "Line one\nLine two\nLine three?"
        let lines = BoardLayout.render(state, width: width, height: height, now: .zero).lines.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let first = lines.firstIndex(of: "Line one")
        #expect(first != nil, "\(lines.joined(separator: "\n"))")
        if let first {
            #expect(Array(lines[first..<min(lines.count, first + 3)]) == ["Line one", "Line two", "Line three?"])
        }
        #expect(!lines.contains { $0.contains("oneLine") })
    }

    @Test(arguments: [BoardState.Connection.connecting, .reconnecting(attempt: 3)])
    func withoutTheDaemonTheBoardSaysWhereItLooksNotHowToStartAGame(connection: BoardState.Connection) {
        var state = BoardState()
        state.connection = connection
        state.daemonSockets = ["/run/user/1000/shaky/shaky.sock", "/run/shaky/shaky.sock"]
        state.daemonProblem = "no socket there"
        let text = BoardLayout.render(state, width: 120, height: 40, now: .zero).text
        #expect(text.contains("Waiting for the Shaky Words daemon."), "\(text)")
        #expect(
            text.contains("Trying /run/user/1000/shaky/shaky.sock, then /run/shaky/shaky.sock (no socket there)"),
            "\(text)")
        #expect(text.contains("journalctl -u shakyd -b"))
        #expect(text.contains("shaky board --socket PATH"))
        #expect(!text.contains("Waiting for a game"))
        #expect(!text.contains("shaky new"), "no game can start while the daemon does not answer")

        state.connection = .connected
        state.daemonProblem = nil
        let connected = BoardLayout.render(state, width: 120, height: 40, now: .zero).text
        #expect(connected.contains("Waiting for a game."))
        #expect(connected.contains("shaky new --team Owls --team Foxes"))
        #expect(!connected.contains("journalctl"))
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

extension BoardStateTests {
    static func readyForTwo() -> BoardState {
        var state = BoardState()
        var status = ShakyAPI.Event(kind: .state)
        status.status = ShakyAPI.State(
            phase: .ready, paused: false, questionCount: 3, hintsUsed: 0, hintsLeft: 0,
            teams: [ShakyAPI.TeamScore(name: "Owls", score: 0), ShakyAPI.TeamScore(name: "Foxes", score: 0)],
            buzzes: [])
        state.apply(status, at: .zero)
        return state
    }

    @Test func pressToJoinHighlightsTheTeamAskedUntilItHasPressed() throws {
        var state = Self.readyForTwo()
        state.apply(Self.buzzer(.joinAsking, team: "Owls", device: ""), at: .zero)
        #expect(state.joiningTeam == "Owls")
        let screen = BoardLayout.render(state, width: 80, height: 24, now: .zero)
        let row = try #require(screen.lines.firstIndex { $0.contains("Owls") && $0.contains("press your button now") })
        #expect(screen.runs(row: row).contains { $0.text.contains("Owls") && $0.style == .highlight })
        #expect(screen.text.contains("■ Foxes · press your button to join"))

        state.apply(Self.buzzer(.joined, team: "Owls", device: "usb-kbd", key: "KEY_A"), at: .zero)
        state.apply(Self.buzzer(.joinAsking, team: "Foxes", device: ""), at: .zero)
        let next = BoardLayout.render(state, width: 80, height: 24, now: .zero)
        #expect(next.text.contains("● Owls · button: A"))
        #expect(next.lines.contains { $0.contains("Foxes: press your button now") })
        #expect(!next.text.contains("Owls: press your button now"))

        state.apply(Self.buzzer(.joined, team: "Foxes", device: "usb-kbd", key: "KEY_B"), at: .zero)
        #expect(state.joiningTeam == nil, "every team has pressed")
        #expect(!BoardLayout.render(state, width: 80, height: 24, now: .zero).text.contains("now"))
    }

    @Test func aJoiningUnderWayWhenTheBoardStartsIsShownAndAwayFromTheReadyScreenIsANotice() {
        var state = Self.readyForTwo()
        var list = Self.buttonList
        list.joining = ["Foxes"]
        state.apply(buzzers: list)
        #expect(
            BoardLayout.render(state, width: 80, height: 24, now: .zero).text.contains("Foxes: press your button now"))
        var round = ShakyAPI.Event(kind: .roundStarted)
        round.number = 1
        round.tiles = Self.tiles("FGEIRFA")
        state.apply(round, at: .zero)
        #expect(BoardLayout.notices(state).contains("Foxes: press your button"))
    }

    @Test func clearedButtonsAreForgottenAtOnceAndStopTheJoining() {
        var state = Self.readyForTwo()
        state.apply(buzzers: Self.buttonList)
        state.apply(Self.buzzer(.joined, team: "Foxes", device: "usb-kbd", key: "KEY_A"), at: .zero)
        state.apply(Self.buzzer(.joinAsking, team: "Bats", device: ""), at: .zero)
        var owls = Self.buzzer(.cleared, team: "owls", device: "")
        owls.buzzer?.device = nil
        state.apply(owls, at: .zero)
        #expect(state.buttonWords(team: "Owls") == nil, "team names match ignoring case")
        #expect(state.buttonWords(team: "Foxes") == "keyboard: A")
        #expect(state.joiningTeam == nil)
        var all = ShakyAPI.Event(kind: .buzzer)
        all.buzzer = ShakyAPI.ButtonEvent(kind: .cleared, cleared: 1)
        state.apply(all, at: .zero)
        #expect(state.buttons.isEmpty)
        #expect(
            BoardLayout.render(state, width: 80, height: 24, now: .zero).text.contains(
                "Foxes · press your button to join"))
    }
}

extension BoardStateTests {
    @Test func aJoiningEndedByANewGameOfOtherTeamsStopsAskingAtOnce() {
        var state = Self.readyForTwo()
        state.apply(buzzers: Self.buttonList)
        state.apply(Self.buzzer(.joinAsking, team: "Owls", device: ""), at: .zero)
        var round = ShakyAPI.Event(kind: .roundStarted)
        round.number = 1
        round.tiles = Self.tiles("FGEIRFA")
        state.apply(round, at: .zero)
        #expect(BoardLayout.notices(state).contains("Owls: press your button"))
        var ended = ShakyAPI.Event(kind: .buzzer)
        ended.buzzer = ShakyAPI.ButtonEvent(
            kind: .joinEnded, team: "Owls", message: "the new game's teams are others; `shaky buzzers join` asks them")
        state.apply(ended, at: .zero)
        #expect(state.joiningTeam == nil)
        #expect(!BoardLayout.render(state, width: 80, height: 24, now: .zero).text.contains("press your button"))
    }

    @Test func aPressThatDidNothingSaysWhatToDoForAFewSeconds() {
        var state = Self.openQuestion
        state.connection = .connected
        var nobodys = ShakyAPI.Event(kind: .buzzer)
        nobodys.buzzer = ShakyAPI.ButtonEvent(
            kind: .pressed, keyName: "KEY_A", device: "platform-i8042-serio-0", path: "/dev/input/event33",
            kernelTime: 5.45, outcome: "unassigned")
        state.apply(nobodys, at: .seconds(10))
        let wide = BoardLayout.render(state, width: 120, height: 30, now: .seconds(11)).text
        #expect(
            wide.contains(
                "No team has KEY_A on /dev/input/event33: shaky buzzers join, or shaky buzzers assign TEAM "
                    + "/dev/input/event33 KEY_A"), "\(wide)")
        #expect(
            BoardLayout.notices(state, width: 62, now: .seconds(11))
                == ["No team has KEY_A on /dev/input/event33: shaky buzzers join"])
        #expect(state.nextTimedChange(after: .seconds(11)) == .seconds(10) + BoardState.pressNoticeTime)
        let later = BoardLayout.render(state, width: 120, height: 30, now: .seconds(10) + BoardState.pressNoticeTime)
        #expect(!later.text.contains("No team has"), "the notice goes after a few seconds")

        var taken = ShakyAPI.Event(kind: .buzzer)
        taken.buzzer = ShakyAPI.ButtonEvent(
            kind: .pressed, team: "Owls", keyName: "BTN_TRIGGER_HAPPY6", kernelTime: 6, outcome: "taken",
            asking: "Foxes")
        state.apply(taken, at: .seconds(20))
        #expect(
            BoardLayout.notices(state, now: .seconds(21)).contains(
                "That button is Owls' — Foxes: press another button"))
        // On a 40-column board, in fewer words that keep what to do.
        #expect(BoardLayout.notices(state, width: 40, now: .seconds(21)) == ["Owls' button — Foxes: press another"])
        var longNames = state
        var takenByLongName = ShakyAPI.Event(kind: .buzzer)
        takenByLongName.buzzer = ShakyAPI.ButtonEvent(
            kind: .pressed, team: "Les Éléphants", keyName: "KEY_1", kernelTime: 7, outcome: "taken",
            asking: "Foxes & Co")
        longNames.apply(takenByLongName, at: .seconds(20))
        #expect(BoardLayout.notices(longNames, width: 40, now: .seconds(21)) == ["Foxes & Co: press another button"])
        var nobodys40 = Self.openQuestion
        nobodys40.connection = .connected
        nobodys40.apply(nobodys, at: .seconds(10))
        #expect(
            BoardLayout.notices(nobodys40, width: 40, now: .seconds(11)) == ["No team has KEY_A: shaky buzzers join"])
        // Foxes press another button: the notice has done its work.
        state.apply(Self.buzzer(.joined, team: "Foxes", device: "usb-kbd", key: "KEY_B"), at: .seconds(21))
        #expect(BoardLayout.notices(state, now: .seconds(21)).isEmpty)
    }

    @Test func aHintFromATeamsControllerSaysWhoShook() {
        var state = Self.openQuestion
        var hint = ShakyAPI.Event(kind: .hint)
        hint.tiles = Self.tiles("GIRAFFE", fixed: [0])
        hint.points = 8
        hint.hintsUsed = 1
        hint.source = "shake"
        hint.shaker = ShakyAPI.Shaker(
            device: "/dev/input/event30", name: "DualSense Motion Sensors", kind: .controller, team: "Foxes")
        state.apply(hint, at: .seconds(1))
        #expect(
            BoardLayout.render(state, width: 80, height: 24, now: .seconds(2)).text.contains(
                "8 points · 1 hint taken · shaken by Foxes"))
        // The board's own sensor needs no words.
        hint.shaker = ShakyAPI.Shaker(device: "/dev/iio:device0", name: "mpu6050", kind: .board)
        hint.hintsUsed = 2
        state.apply(hint, at: .seconds(3))
        #expect(state.hintShaker == nil)
        #expect(!BoardLayout.render(state, width: 80, height: 24, now: .seconds(4)).text.contains("shaken by"))
    }
}

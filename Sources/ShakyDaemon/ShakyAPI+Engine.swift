import ShakeDetection
import ShakyCore
import ShakyProtocol
import ShakyStore
import TriviaEngine

// How the engine's and the store's values look on the wire.

extension Duration {
    /// This duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The largest number of seconds, either way, that a client may send for a duration: far beyond any
    /// rule's limit, yet small enough that its milliseconds convert to `Int64` exactly.
    static let largestWireSeconds: Double = 1e9

    /// A duration of `seconds` seconds, to the millisecond, or `nil` when `seconds` is not finite or is
    /// beyond `largestWireSeconds` either way, so that a client's number never traps the conversion.
    static func wireSeconds(_ seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds.magnitude <= largestWireSeconds else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension ShakyAPI.Tile {
    init(_ tile: ScrambleDisplay.Tile) {
        self.init(text: tile.text, letter: tile.isLetter, fixed: tile.isFixed)
    }
}

extension ShakyAPI.Standing {
    init(_ standing: GameResult.Standing) {
        self.init(
            team: standing.team, points: standing.points, rank: standing.rank,
            correctAnswers: standing.correctAnswers, hintsUsed: standing.hintsUsed, buzzes: standing.buzzes,
            averageBuzzTime: standing.averageBuzzTime?.seconds,
            adjustments: standing.adjustments.isEmpty
                ? nil
                : standing.adjustments.map {
                    ShakyAPI.Adjustment(delta: $0.delta, reason: $0.reason, question: $0.question)
                })
    }
}

extension ShakyAPI.Result {
    init(_ result: GameResult) {
        self.init(
            standings: result.standings.map(ShakyAPI.Standing.init), winners: result.winners,
            questionsPlayed: result.questionsPlayed, questionCount: result.questionCount,
            endedEarly: result.endedEarly)
    }
}

extension ShakyAPI.State.Phase {
    init(_ phase: GamePhase) {
        switch phase {
        case .ready: self = .ready
        case .indication: self = .indication
        case .answering: self = .answering
        case .roundOver: self = .roundOver
        case .gameOver: self = .gameOver
        }
    }
}

extension ShakyAPI.State.RoundEnd {
    init(_ end: RoundEnd) {
        switch end {
        case .answered: self = .answered
        case .timeUp: self = .timeUp
        case .wrongAnswers: self = .wrongAnswers
        case .skipped: self = .skipped
        case .gameEnded: self = .gameEnded
        case .overruled: self = .overruled
        }
    }
}

extension ShakyAPI.State {
    init(_ status: GameStatus) {
        self.init(
            phase: ShakyAPI.State.Phase(status.phase), paused: status.isPaused, teamUp: status.teamUp,
            questionNumber: status.questionNumber, questionCount: status.questionCount, question: status.questionText,
            tiles: status.display?.tiles.map(ShakyAPI.Tile.init), pattern: status.display?.pattern,
            points: status.points, hintsUsed: status.hintsUsed, hintsLeft: status.hintsLeft,
            remaining: status.remaining?.seconds, countdownLength: status.countdownLength?.seconds,
            teams: status.teams.map { ShakyAPI.TeamScore(name: $0.name, score: $0.score) },
            buzzes: status.buzzOrder.enumerated().map {
                ShakyAPI.BuzzEntry(
                    team: $0.element.team, order: $0.offset + 1, elapsed: $0.element.elapsed.seconds,
                    points: $0.element.points)
            },
            judgements: status.judgements.map {
                ShakyAPI.JudgementEntry(
                    team: $0.team, given: $0.given, correct: $0.correct, awarded: $0.correct ? $0.points : 0)
            },
            answer: status.revealedAnswer, roundWinner: status.roundWinner,
            roundEnd: status.roundEnd.map(ShakyAPI.State.RoundEnd.init), result: status.result.map(ShakyAPI.Result.init)
        )
    }
}

extension ShakyAPI.Event {
    /// The event watchers see for an engine action, or `nil` for actions that are the runtime's alone.
    init?(_ action: GameAction) {
        switch action {
        case .roundStarted(let number, let total, let question, let display, let points, let indicationTime):
            self.init(kind: .roundStarted)
            self.number = number
            self.total = total
            self.question = question
            tiles = display.tiles.map(ShakyAPI.Tile.init)
            pattern = display.pattern
            self.points = points
            remaining = indicationTime.seconds
        case .hintRevealed(let display, let points, let hintsUsed, let source):
            self.init(kind: .hint)
            tiles = display.tiles.map(ShakyAPI.Tile.init)
            pattern = display.pattern
            self.points = points
            self.hintsUsed = hintsUsed
            self.source = source.rawValue
        case .buzzed(let team, let order, let elapsed, let indicationRemaining):
            self.init(kind: .buzz)
            self.team = team
            self.order = order
            self.elapsed = elapsed.seconds
            remaining = indicationRemaining.seconds
        case .teamUp(let team, let answerTime):
            self.init(kind: .teamUp)
            self.team = team
            remaining = answerTime.seconds
        case .judged(let team, let given, let correct, let pointsAwarded):
            self.init(kind: .judged)
            self.team = team
            self.given = given
            self.correct = correct
            awarded = pointsAwarded
        case .answerRevealed(let answer, let winner, let end):
            self.init(kind: .answerRevealed)
            self.answer = answer
            self.winner = winner
            roundEnd = ShakyAPI.State.RoundEnd(end)
        case .scoreAdjusted(let team, let delta, let reason, let newScore):
            self.init(kind: .scoreAdjusted)
            self.team = team
            self.delta = delta
            self.reason = reason
            score = newScore
        case .tick(let phase, let remaining):
            self.init(kind: .tick)
            self.phase = phase.description
            self.remaining = remaining.seconds
        case .phaseChanged(let phase):
            self.init(kind: .phaseChanged)
            self.phase = phase.description
        case .paused:
            self.init(kind: .paused)
        case .resumed:
            self.init(kind: .resumed)
        case .gameOver(let result):
            self.init(kind: .gameOver)
            self.result = ShakyAPI.Result(result)
        case .resultCorrected(let result):
            // A second `gameOver`, marked: a client that knows nothing of corrections shows the new result as the
            // game's result all the same.
            self.init(kind: .gameOver)
            self.result = ShakyAPI.Result(result)
            corrected = true
        case .judgementOverruled(let team, let given, let correct, let pointsDelta, let newScore):
            self.init(kind: .overruled)
            self.team = team
            self.given = given
            self.correct = correct
            timedOut = given == nil
            delta = pointsDelta
            score = newScore
        case .buzzUndone(let team):
            self.init(kind: .buzzUndone)
            self.team = team
        case .wake, .cancelWake:
            return nil
        }
    }
}

extension ShakyAPI.Event {
    /// The event watchers see for a runtime event, or `nil` for what is the runtime's alone.
    init?(_ event: RuntimeEvent) {
        switch event {
        case .state(let status):
            self.init(kind: .state, status: status.map(ShakyAPI.State.init))
        case .action(let action):
            self.init(action)
        case .paused(let remaining):
            self.init(kind: .paused)
            self.remaining = remaining?.seconds
        case .countdown(let phase, let remaining):
            // What a tick says, so a client reads both alike.
            self.init(GameAction.tick(phase: phase, remaining: remaining))
        case .shakeHint(let action, let shaker):
            self.init(action)
            self.shaker = ShakyAPI.Shaker(
                device: shaker.device, name: shaker.name, kind: shaker.kind == .board ? .board : .controller,
                buttons: shaker.buttons, team: shaker.team)
        case .sensor(let present, let device):
            self.init(kind: .sensor, sensorPresent: present, sensorDevice: device)
        case .buzzer(let notice):
            self.init(kind: .buzzer, buzzer: ShakyAPI.ButtonEvent(notice))
        }
    }
}

extension ShakyAPI.Overruling {
    init(_ overruling: Overruling) {
        self.init(
            team: overruling.team, given: overruling.given, timedOut: overruling.timedOut,
            correct: overruling.correct, delta: overruling.pointsDelta, score: overruling.newScore)
    }
}

extension ShakyAPI.SensorStatus {
    init(_ report: SensorReport) {
        let state: ShakyAPI.SensorStatus.State =
            switch report.state {
            case .absent: .absent
            case .ready: .ready
            case .reading: .reading
            case .gone: .gone
            }
        self.init(
            state: state, driver: report.driver, device: report.device, rate: report.rate, shakes: report.shakes,
            sensitivity: ShakyAPI.SensorStatus.Sensitivity(rawValue: report.sensitivity.rawValue) ?? .medium,
            message: report.message, frame: report.frame,
            controllers: report.controllers.isEmpty ? nil : report.controllers)
    }
}

extension ShakyAPI.Rules {
    /// The engine's settings: the defaults with every field given here replaced. Throws `invalidSetup`
    /// naming the field when a duration is a number no rule could take (the engine checks the rest).
    func gameSettings() throws(RuntimeError) -> GameRules {
        func duration(_ seconds: Double, _ field: String) throws(RuntimeError) -> Duration {
            guard let duration = Duration.wireSeconds(seconds) else {
                let limit = GameRules.longestDuration.components.seconds
                throw .invalidSetup(
                    "\(field) must be between 0 and \(limit) seconds, not \(DecimalText.said(seconds))")
            }
            return duration
        }
        var settings = GameRules()
        if let indicationTime { settings.indicationTime = try duration(indicationTime, "indicationTime") }
        if let timeAfterFirstBuzz {
            settings.timeAfterFirstBuzz = try duration(timeAfterFirstBuzz, "timeAfterFirstBuzz")
        }
        if let answerTime { settings.answerTime = try duration(answerTime, "answerTime") }
        if let basePoints {
            settings.basePoints = basePoints
            // What a hint costs and the least a question is worth are, by default, at most what it is worth: a game
            // of `--base-points 1` alone is set up, not refused for the defaults the host never typed.
            if basePoints >= 1 {
                settings.pointsPerHint = min(settings.pointsPerHint, basePoints)
                settings.minimumPoints = min(settings.minimumPoints, basePoints)
            }
        }
        if let pointsPerHint { settings.pointsPerHint = pointsPerHint }
        if let minimumPoints { settings.minimumPoints = minimumPoints }
        if let maximumHints { settings.maximumHints = maximumHints }
        if let hintCooldown { settings.hintCooldown = try duration(hintCooldown, "hintCooldown") }
        if let answerTolerance { settings.answerTolerance = answerTolerance }
        if let ignoreDiacritics { settings.ignoreDiacritics = ignoreDiacritics }
        if let buzzerMode { settings.buzzerMode = buzzerMode == .classic ? .classic : .buzzOrder }
        return settings
    }

    /// The early-press lock-out `New` asked for (zero: off), or `nil` when it did not say (the daemon's default
    /// applies). Throws `invalidSetup` for a negative or unusable number; the engine checks the upper bound.
    func earlyPressLockoutDuration() throws(RuntimeError) -> Duration? {
        guard let earlyPressLockout else { return nil }
        guard earlyPressLockout >= 0, let duration = Duration.wireSeconds(earlyPressLockout) else {
            let limit = GameRules.longestEarlyPressLockout.components.seconds
            throw .invalidSetup("earlyPressLockout must be between 0 and \(limit) seconds, not \(earlyPressLockout)")
        }
        return duration
    }
}

extension ShakyAPI.Pack {
    init(_ pack: PackSummary) {
        self.init(
            name: pack.name, builtin: pack.isBuiltin, questions: pack.questionCount, easy: pack.easyCount,
            medium: pack.mediumCount, hard: pack.hardCount)
    }
}

extension ShakyAPI.Question {
    init(_ question: Question) {
        self.init(
            text: question.text, answer: question.answer,
            alternates: question.alternates.isEmpty ? nil : question.alternates,
            difficulty: ShakyAPI.Question.Difficulty(rawValue: question.difficulty.rawValue) ?? .medium)
    }

    var engineQuestion: Question {
        Question(
            text: text, answer: answer, alternates: alternates ?? [],
            difficulty: TriviaEngine.Difficulty(rawValue: difficulty.rawValue) ?? .medium)
    }
}

extension ShakyAPI.StoredQuestion {
    init(_ stored: StoredQuestion) {
        self.init(
            id: Int(stored.id), pack: stored.packName, text: stored.question.text, answer: stored.question.answer,
            alternates: stored.question.alternates,
            difficulty: ShakyAPI.Question.Difficulty(rawValue: stored.question.difficulty.rawValue) ?? .medium)
    }
}

extension GameError {
    /// A stable name for the rule the move broke, for clients that react to it.
    var reasonCode: String {
        switch self {
        case .gameIsOver: "gameIsOver"
        case .gamePaused: "gamePaused"
        // Said in words of its own for taking back a buzz, but the same rule: the question is not in play.
        case .roundNotOpen, .buzzNotUndoable: "roundNotOpen"
        case .noQuestionInPlay: "noQuestionInPlay"
        case .questionInPlay: "questionInPlay"
        case .unknownTeam: "unknownTeam"
        case .alreadyBuzzed: "alreadyBuzzed"
        // Said in words of its own for classic mode, but the same rule for clients that react to the reason.
        case .notAnsweringYet, .nobodyHasBuzzed: "notAnsweringYet"
        case .notYourTurn: "notYourTurn"
        case .noAnswerExpected: "noAnswerExpected"
        case .hintLimitReached: "hintLimitReached"
        case .hintWouldRevealAnswer: "hintWouldRevealAnswer"
        case .hintCoolingDown: "hintCoolingDown"
        case .nothingToPause: "nothingToPause"
        case .alreadyPaused: "alreadyPaused"
        case .notPaused: "notPaused"
        case .zeroAdjustment: "zeroAdjustment"
        case .adjustmentTooLarge: "adjustmentTooLarge"
        case .missingReason: "missingReason"
        // Too long in code points, the same rule.
        case .reasonTooLong, .reasonTooComplex: "reasonTooLong"
        case .adjustmentLimitReached: "adjustmentLimitReached"
        case .nothingToOverrule: "nothingToOverrule"
        case .noBuzzToUndo: "noBuzzToUndo"
        case .buzzAlreadyJudged: "buzzAlreadyJudged"
        case .answerTooLong, .answerTooComplex: "answerTooLong"
        }
    }
}

import ShakyProtocol

/// What the board knows about the game, in the board's own words: built from `Watch` events (see
/// `BoardState+Watch.swift`, the one place that reads the wire), drawn by ``BoardLayout``.
///
/// Times are seconds as the daemon reports them; `now` values are the board's own clock (time since the
/// board started), passed in so that the layout stays a pure function.
public struct BoardState: Equatable, Sendable {
    /// Where the game is, as the room sees it.
    public enum Phase: Equatable, Sendable {
        /// No game on the daemon.
        case noGame
        /// A game is set up; the first question is not open yet.
        case ready
        /// A question is open: buzzers are open.
        case open
        /// A team is giving its answer.
        case answering(team: String)
        /// The question is over; its answer is shown.
        case roundOver
        /// The game is over.
        case gameOver
    }

    /// How a question ended, as the daemon says it (an older daemon does not).
    public enum RoundEnd: Equatable, Sendable {
        /// A team answered right.
        case answered
        /// The time to buzz ran out.
        case timeUp
        /// Every team that buzzed was wrong or ran out of its time to answer, and none was left to buzz.
        case wrongAnswers
        /// The host skipped the question.
        case skipped
        /// The host ended the game during the question.
        case gameEnded
        /// The host's overrule settled the question.
        case overruled
    }

    /// The board's link to the daemon.
    public enum Connection: Equatable, Sendable {
        /// Connecting for the first time.
        case connecting
        /// Watching the game.
        case connected
        /// The daemon went away; the board tries again (`attempt` counts the tries so far).
        case reconnecting(attempt: Int)
    }

    /// One tile of the scrambled answer.
    public struct Tile: Equatable, Sendable {
        /// What the tile shows: one letter, or a space or punctuation.
        public var text: String
        /// Whether it is a letter to unscramble (spaces and punctuation are not).
        public var isLetter: Bool
        /// Whether a hint fixed it in its right place.
        public var isFixed: Bool

        /// Creates a tile.
        public init(text: String, isLetter: Bool = true, isFixed: Bool = false) {
            self.text = text
            self.isLetter = isLetter
            self.isFixed = isFixed
        }
    }

    /// A team and its points, in the order the teams joined (which picks its colour and symbol).
    public struct Team: Equatable, Sendable {
        /// The team's name.
        public var name: String
        /// Its points.
        public var score: Int

        /// Creates a team.
        public init(name: String, score: Int = 0) {
            self.name = name
            self.score = score
        }
    }

    /// A buzz on the open question.
    public struct Buzz: Equatable, Sendable {
        /// The team that buzzed.
        public var team: String
        /// Its place in the buzz order, from 1.
        public var order: Int
        /// Seconds from the question opening to the buzz.
        public var elapsed: Double
        /// What a right answer from this team scores: the question's worth when it buzzed, when known.
        public var points: Int?

        /// Creates a buzz.
        public init(team: String, order: Int, elapsed: Double, points: Int? = nil) {
            self.team = team
            self.order = order
            self.elapsed = elapsed
            self.points = points
        }
    }

    /// A team's answer and how it was judged.
    public struct Judgement: Equatable, Sendable {
        /// The team that answered.
        public var team: String
        /// What it said; `nil` when its time ran out.
        public var given: String?
        /// Whether it was right.
        public var isCorrect: Bool
        /// Points it won.
        public var awarded: Int

        /// Creates a judgement.
        public init(team: String, given: String?, isCorrect: Bool, awarded: Int = 0) {
            self.team = team
            self.given = given
            self.isCorrect = isCorrect
            self.awarded = awarded
        }
    }

    /// A team's line in the final result.
    public struct Standing: Equatable, Sendable {
        /// The team.
        public var team: String
        /// Its points.
        public var points: Int
        /// Its rank (1 is the winner; ties share a rank).
        public var rank: Int
        /// Questions it got right.
        public var correctAnswers: Int
        /// Hints taken while it was in play.
        public var hintsUsed: Int
        /// Times it buzzed.
        public var buzzes: Int
        /// Its average buzz time in seconds, `nil` when it never buzzed.
        public var averageBuzzTime: Double?

        /// Creates a standing.
        public init(
            team: String, points: Int, rank: Int, correctAnswers: Int = 0, hintsUsed: Int = 0, buzzes: Int = 0,
            averageBuzzTime: Double? = nil
        ) {
            self.team = team
            self.points = points
            self.rank = rank
            self.correctAnswers = correctAnswers
            self.hintsUsed = hintsUsed
            self.buzzes = buzzes
            self.averageBuzzTime = averageBuzzTime
        }
    }

    /// How the game ended.
    public struct Result: Equatable, Sendable {
        /// Every team, best first.
        public var standings: [Standing]
        /// The winner, or several on a tie.
        public var winners: [String]
        /// Questions played.
        public var questionsPlayed: Int
        /// Questions the game had.
        public var questionCount: Int
        /// Whether the host ended it before the last question.
        public var endedEarly: Bool

        /// Creates a result.
        public init(
            standings: [Standing], winners: [String], questionsPlayed: Int, questionCount: Int,
            endedEarly: Bool = false
        ) {
            self.standings = standings
            self.winners = winners
            self.questionsPlayed = questionsPlayed
            self.questionCount = questionCount
            self.endedEarly = endedEarly
        }
    }

    /// A press that did nothing, as the daemon told it.
    public struct UnheardPress: Equatable, Sendable {
        /// The key's kernel name (`KEY_A`, `BTN_TRIGGER_HAPPY6`).
        public var keyName: String
        /// The device it was pressed on: its node, else its identity.
        public var device: String
        /// While joining, the team that took the button; `nil` when no team has it.
        public var owner: String?
        /// While joining, the team asked, which is to press another button.
        public var asking: String?
        /// When (board time) it came.
        public var at: Duration
    }

    /// A score the host changed by hand, as the daemon told it.
    public struct ScoreChange: Equatable, Sendable {
        /// The team.
        public var team: String
        /// The points added; negative when taken away.
        public var delta: Int
        /// Why, as the host said it.
        public var reason: String?
        /// When (board time) it came.
        public var at: Duration
    }

    /// A team's button: a key on a buzzer device, by the device's stable identity.
    public struct Button: Equatable, Sendable {
        /// The device's identity (a Bluetooth address, udev `ID_PATH` or `ID_SERIAL`, or its name).
        public var device: String
        /// The key's kernel name (`KEY_A`, `BTN_TRIGGER_HAPPY6`).
        public var keyName: String

        /// Creates a button.
        public init(device: String, keyName: String) {
            self.device = device
            self.keyName = keyName
        }
    }

    /// A buzzer device the daemon has seen.
    public struct ButtonDevice: Equatable, Sendable {
        /// The kernel's name for it, when known.
        public var name: String?
        /// What it is: `buzz`, `keyboard`, `arcade`, `gamepad`, `gpio-keys` or `buttons`, when known.
        public var kind: String?
        /// Whether it is plugged in.
        public var isPresent: Bool

        /// Creates a device.
        public init(name: String? = nil, kind: String? = nil, isPresent: Bool = true) {
            self.name = name
            self.kind = kind
            self.isPresent = isPresent
        }
    }

    /// A terminal type the board is drawn with in place of the terminal's own, which terminfo does not know here.
    public struct TerminalStandIn: Equatable, Sendable {
        /// The terminal's own type (`TERM`).
        public var term: String
        /// The type the board is drawn with instead.
        public var drawnAs: String

        /// A stand-in `drawnAs` for `term`.
        public init(term: String, drawnAs: String) {
            self.term = term
            self.drawnAs = drawnAs
        }
    }

    /// The link to the daemon.
    public var connection: Connection = .connecting
    /// The sockets the board tries, in order (one when `--socket` or `SHAKY_SOCKET` names it).
    public var daemonSockets: [String] = []
    /// Why the last try to reach the daemon failed (`no socket there`), until one succeeds.
    public var daemonProblem: String?
    /// The last value the daemon sent that this board does not know (the daemon is newer: shaky should be updated).
    public var unknownDaemonValue: UnknownReplyValue?
    /// Where the game is.
    public var phase: Phase = .noGame
    /// Whether the host paused the game.
    public var isPaused = false
    /// The open question's number, from 1.
    public var questionNumber: Int?
    /// How many questions the game has.
    public var questionCount = 0
    /// The question's text.
    public var question: String?
    /// The scrambled answer.
    public var tiles: [Tile] = []
    /// What the question is worth now.
    public var points: Int?
    /// Hints taken on this question.
    public var hintsUsed = 0
    /// Seconds left on the countdown, as last reported (``counted(at:)`` counts it down).
    public var remaining: Double?
    /// The countdown as it runs on the board's clock between the daemon's reports (`Watch(ticks: false)`).
    public var countdown = WatchCountdown()
    /// Seconds the countdown started from (the length of the bar), when known: the phase's countdown as the daemon
    /// states it in the state's `countdownLength`, the time to buzz or to answer, or more when more is left.
    public var countdownLength: Double?
    /// The time to buzz, as the question's start (or a state read while buzzing) said it: the length of the bar
    /// again when buzzing reopens.
    public var indicationLength: Double?
    /// The time to answer, as a team called up (or a state read while a team answered) said it.
    public var answerLength: Double?
    /// The teams, in the order they joined.
    public var teams: [Team] = []
    /// The buzzes on this question, in order.
    public var buzzes: [Buzz] = []
    /// The team giving its answer.
    public var teamUp: String?
    /// The answers given on this question.
    public var judgements: [Judgement] = []
    /// The answer, once revealed.
    public var answer: String?
    /// The team that got it, once revealed.
    public var roundWinner: String?
    /// How the question ended, once revealed; `nil` when the daemon does not say.
    public var roundEnd: RoundEnd?
    /// The tiles the last hint fixed, by index.
    public var hintedTiles: Set<Int> = []
    /// When (board time) the last hint came.
    public var hintedAt: Duration?
    /// Who shook for the last hint when it was a motion controller: its team, else the controller's name.
    public var hintShaker: String?
    /// How the game ended.
    public var result: Result?
    /// Whether the accelerometer is gone (hints only by hand until it is back).
    public var isSensorGone = false
    /// Whether the daemon's sound is off.
    public var isSoundSilent = false
    /// The teams' buttons, by team name.
    public var buttons: [String: Button] = [:]
    /// The buzzer devices the daemon has seen, by identity.
    public var buttonDevices: [String: ButtonDevice] = [:]
    /// Press to join: the team the daemon is asking to press its button now, if a joining is under way.
    public var joiningTeam: String?
    /// The last press that did nothing (a button no team has; while joining, one another team took), shown for
    /// ``pressNoticeTime``.
    public var unheardPress: UnheardPress?
    /// The terminal type the board is drawn with when the terminal's own is unknown here.
    public var terminalStandIn: TerminalStandIn?
    /// The last score the host changed by hand, shown for ``scoreChangeNoticeTime``: the scores (and after the game,
    /// the winner) change before the room's eyes, and the room sees why.
    public var scoreChange: ScoreChange?

    /// A board with nothing known yet.
    public init() {}

    /// How long a hint's letter stays highlighted.
    public static let hintHighlight: Duration = .seconds(3)

    /// How long the notice of a press that did nothing stays up.
    public static let pressNoticeTime: Duration = .seconds(5)

    /// How long the notice of a score changed by hand stays up.
    public static let scoreChangeNoticeTime: Duration = .seconds(8)

    /// The last score changed by hand, while its notice is up at `now`.
    public func scoreChange(at now: Duration) -> ScoreChange? {
        guard let scoreChange, now >= scoreChange.at, now - scoreChange.at < Self.scoreChangeNoticeTime else {
            return nil
        }
        return scoreChange
    }

    /// The last press that did nothing, while its notice is up at `now`.
    public func unheardPress(at now: Duration) -> UnheardPress? {
        guard let unheardPress, now >= unheardPress.at, now - unheardPress.at < Self.pressNoticeTime else { return nil }
        return unheardPress
    }

    /// Whether tile `index` just moved into place and should stand out at `now`.
    public func isHighlighted(tile index: Int, at now: Duration) -> Bool {
        guard let hintedAt, hintedTiles.contains(index) else { return false }
        return now >= hintedAt && now - hintedAt < Self.hintHighlight
    }

    /// When the board drawn at `now` next looks different with no event (a hint's highlight or a press's notice
    /// ending), if it will.
    public func nextTimedChange(after now: Duration) -> Duration? {
        let hintEnd = hintedTiles.isEmpty ? nil : hintedAt.map { $0 + Self.hintHighlight }
        let noticeEnd = unheardPress.map { $0.at + Self.pressNoticeTime }
        let scoreChangeEnd = scoreChange.map { $0.at + Self.scoreChangeNoticeTime }
        let nextSecond = countdown.nextTick(after: now)?.at
        return [hintEnd, noticeEnd, scoreChangeEnd, nextSecond].compactMap { $0 }.filter { $0 > now }.min()
    }

    /// The board at `now`: the running countdown counted down to then.
    public func counted(at now: Duration) -> BoardState {
        guard let left = countdown.remaining(at: now) else { return self }
        var state = self
        state.remaining = left
        return state
    }

    /// Stops the countdown where it is at `now`: the daemon went away, and whether its countdown runs on is not
    /// known (a daemon restarted after a crash restores the game paused). The daemon's next report starts it again.
    mutating func holdCountdown(at now: Duration) {
        guard let left = countdown.remaining(at: now) else { return }
        remaining = left
        countdown = WatchCountdown()
    }

    /// Forgets the game but keeps what is known about the daemon (connection, sensor, sound, buttons) and the
    /// terminal.
    mutating func clearGame() {
        let kept = (connection, isSensorGone, isSoundSilent, buttons, buttonDevices, joiningTeam)
        let daemon = (daemonSockets, daemonProblem, unknownDaemonValue, terminalStandIn)
        self = BoardState()
        (connection, isSensorGone, isSoundSilent, buttons, buttonDevices, joiningTeam) = kept
        (daemonSockets, daemonProblem, unknownDaemonValue, terminalStandIn) = daemon
    }

    /// Forgets the open question's buzzes, answers and hint, for a new question.
    mutating func clearRound() {
        buzzes = []
        judgements = []
        teamUp = nil
        answer = nil
        roundWinner = nil
        roundEnd = nil
        hintedTiles = []
        hintedAt = nil
        hintShaker = nil
        hintsUsed = 0
    }
}

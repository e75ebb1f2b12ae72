/// The values exchanged over Shaky Words' Varlink interfaces, mirroring their descriptions field by field.
///
/// Times are seconds as `Double`; optional fields are left out of the JSON when `nil`. The daemon maps its
/// engine and store types to these; clients decode them.
public enum ShakyAPI {
    /// The interface names.
    public static let gameInterface = "io.shakywords.Game"
    /// The packs interface.
    public static let packsInterface = "io.shakywords.Packs"
    /// The sensor interface.
    public static let sensorInterface = "io.shakywords.Sensor"
    /// The settings interface.
    public static let settingsInterface = "io.shakywords.Settings"

    /// One tile of the scrambled answer.
    public struct Tile: Codable, Equatable, Sendable {
        public var text: String
        public var letter: Bool
        public var fixed: Bool

        public init(text: String, letter: Bool, fixed: Bool) {
            self.text = text
            self.letter = letter
            self.fixed = fixed
        }
    }

    /// A team and its score.
    public struct TeamScore: Codable, Equatable, Sendable {
        public var name: String
        public var score: Int

        public init(name: String, score: Int) {
            self.name = name
            self.score = score
        }
    }

    /// A buzz on the current question.
    public struct Buzz: Codable, Equatable, Sendable {
        public var team: String
        public var order: Int
        public var elapsed: Double

        public init(team: String, order: Int, elapsed: Double) {
            self.team = team
            self.order = order
            self.elapsed = elapsed
        }
    }

    /// One line of the final scoreboard.
    public struct Standing: Codable, Equatable, Sendable {
        public var team: String
        public var points: Int
        public var rank: Int
        public var correctAnswers: Int
        public var hintsUsed: Int
        public var buzzes: Int
        public var averageBuzzTime: Double?

        public init(
            team: String, points: Int, rank: Int, correctAnswers: Int, hintsUsed: Int, buzzes: Int,
            averageBuzzTime: Double?
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

    /// How a game ended.
    public struct Result: Codable, Equatable, Sendable {
        public var standings: [Standing]
        public var winners: [String]
        public var questionsPlayed: Int
        public var questionCount: Int
        public var endedEarly: Bool

        public init(
            standings: [Standing], winners: [String], questionsPlayed: Int, questionCount: Int, endedEarly: Bool
        ) {
            self.standings = standings
            self.winners = winners
            self.questionsPlayed = questionsPlayed
            self.questionCount = questionCount
            self.endedEarly = endedEarly
        }
    }

    /// The rules of one game; `nil` fields take the defaults.
    public struct Rules: Codable, Equatable, Sendable {
        public var indicationTime: Double?
        public var timeAfterFirstBuzz: Double?
        public var answerTime: Double?
        public var basePoints: Int?
        public var pointsPerHint: Int?
        public var minimumPoints: Int?
        public var maximumHints: Int?
        public var hintCooldown: Double?
        public var answerTolerance: Bool?
        public var ignoreDiacritics: Bool?

        public init(
            indicationTime: Double? = nil, timeAfterFirstBuzz: Double? = nil, answerTime: Double? = nil,
            basePoints: Int? = nil, pointsPerHint: Int? = nil, minimumPoints: Int? = nil, maximumHints: Int? = nil,
            hintCooldown: Double? = nil, answerTolerance: Bool? = nil, ignoreDiacritics: Bool? = nil
        ) {
            self.indicationTime = indicationTime
            self.timeAfterFirstBuzz = timeAfterFirstBuzz
            self.answerTime = answerTime
            self.basePoints = basePoints
            self.pointsPerHint = pointsPerHint
            self.minimumPoints = minimumPoints
            self.maximumHints = maximumHints
            self.hintCooldown = hintCooldown
            self.answerTolerance = answerTolerance
            self.ignoreDiacritics = ignoreDiacritics
        }
    }

    /// Where a game is.
    public enum Phase: String, Codable, Equatable, Sendable, CaseIterable {
        case ready, indication, answering, roundOver, gameOver
    }

    /// Everything a board or a player needs to show the game.
    public struct Status: Codable, Equatable, Sendable {
        public var phase: Phase
        public var paused: Bool
        public var teamUp: String?
        public var questionNumber: Int?
        public var questionCount: Int
        public var question: String?
        public var tiles: [Tile]?
        public var pattern: String?
        public var points: Int?
        public var hintsUsed: Int
        public var hintsLeft: Int
        public var remaining: Double?
        public var teams: [TeamScore]
        public var buzzes: [Buzz]
        public var answer: String?
        public var roundWinner: String?
        public var result: Result?

        public init(
            phase: Phase, paused: Bool, teamUp: String? = nil, questionNumber: Int? = nil, questionCount: Int,
            question: String? = nil, tiles: [Tile]? = nil, pattern: String? = nil, points: Int? = nil,
            hintsUsed: Int = 0, hintsLeft: Int = 0, remaining: Double? = nil, teams: [TeamScore], buzzes: [Buzz] = [],
            answer: String? = nil, roundWinner: String? = nil, result: Result? = nil
        ) {
            self.phase = phase
            self.paused = paused
            self.teamUp = teamUp
            self.questionNumber = questionNumber
            self.questionCount = questionCount
            self.question = question
            self.tiles = tiles
            self.pattern = pattern
            self.points = points
            self.hintsUsed = hintsUsed
            self.hintsLeft = hintsLeft
            self.remaining = remaining
            self.teams = teams
            self.buzzes = buzzes
            self.answer = answer
            self.roundWinner = roundWinner
            self.result = result
        }
    }

    /// What an ``Event`` reports.
    public enum EventKind: String, Codable, Equatable, Sendable, CaseIterable {
        case state, roundStarted, hint, buzz, teamUp, judged, answerRevealed, scoreAdjusted, tick, phaseChanged
        case paused, resumed, gameOver, sensor
    }

    /// One thing that happened, as `Watch` reports it; `kind` says which fields are set.
    public struct Event: Codable, Equatable, Sendable {
        public var kind: EventKind
        public var status: Status?
        public var number: Int?
        public var total: Int?
        public var question: String?
        public var tiles: [Tile]?
        public var pattern: String?
        public var points: Int?
        public var hintsUsed: Int?
        public var source: String?
        public var team: String?
        public var order: Int?
        public var elapsed: Double?
        public var remaining: Double?
        public var given: String?
        public var correct: Bool?
        public var awarded: Int?
        public var answer: String?
        public var winner: String?
        public var delta: Int?
        public var reason: String?
        public var score: Int?
        public var phase: String?
        public var result: Result?
        public var sensorPresent: Bool?
        public var sensorDevice: String?

        /// An event of `kind` with no fields set yet.
        public init(kind: EventKind) {
            self.kind = kind
        }
    }

    /// A finished game.
    public struct FinishedGame: Codable, Equatable, Sendable {
        public var id: Int
        public var finishedAt: String
        public var teams: [TeamScore]
        public var winners: [String]

        public init(id: Int, finishedAt: String, teams: [TeamScore], winners: [String]) {
            self.id = id
            self.finishedAt = finishedAt
            self.teams = teams
            self.winners = winners
        }
    }

    /// A team's record across finished games.
    public struct LeaderboardEntry: Codable, Equatable, Sendable {
        public var team: String
        public var games: Int
        public var wins: Int
        public var points: Int

        public init(team: String, games: Int, wins: Int, points: Int) {
            self.team = team
            self.games = games
            self.wins = wins
            self.points = points
        }
    }

    /// A quiz pack's summary.
    public struct Pack: Codable, Equatable, Sendable {
        public var name: String
        public var builtin: Bool
        public var questions: Int
        public var easy: Int
        public var medium: Int
        public var hard: Int

        public init(name: String, builtin: Bool, questions: Int, easy: Int, medium: Int, hard: Int) {
            self.name = name
            self.builtin = builtin
            self.questions = questions
            self.easy = easy
            self.medium = medium
            self.hard = hard
        }
    }

    /// How hard a question is.
    public enum Difficulty: String, Codable, Equatable, Sendable, CaseIterable {
        case easy, medium, hard
    }

    /// Which questions a new game draws from.
    public enum DifficultyFilter: String, Codable, Equatable, Sendable, CaseIterable {
        case any, easy, medium, hard
    }

    /// A question as written into a pack.
    public struct Question: Codable, Equatable, Sendable {
        public var text: String
        public var answer: String
        public var alternates: [String]?
        public var difficulty: Difficulty

        public init(text: String, answer: String, alternates: [String]? = nil, difficulty: Difficulty) {
            self.text = text
            self.answer = answer
            self.alternates = alternates
            self.difficulty = difficulty
        }
    }

    /// A question stored in a pack.
    public struct StoredQuestion: Codable, Equatable, Sendable {
        public var id: Int
        public var pack: String
        public var text: String
        public var answer: String
        public var alternates: [String]
        public var difficulty: Difficulty

        public init(id: Int, pack: String, text: String, answer: String, alternates: [String], difficulty: Difficulty) {
            self.id = id
            self.pack = pack
            self.text = text
            self.answer = answer
            self.alternates = alternates
            self.difficulty = difficulty
        }
    }

    /// A pack file's format.
    public enum PackFormat: String, Codable, Equatable, Sendable, CaseIterable {
        case json, csv
    }

    /// The accelerometer's state.
    public enum SensorState: String, Codable, Equatable, Sendable, CaseIterable {
        case absent, ready, reading, gone
    }

    /// The accelerometer as the daemon sees it.
    public struct SensorStatus: Codable, Equatable, Sendable {
        public var state: SensorState
        public var driver: String?
        public var device: String?
        public var rate: Double?
        public var shakes: Int
        public var sensitivity: String
        public var message: String?
        /// Which way the readings' axes point, in words.
        public var frame: String?

        public init(
            state: SensorState, driver: String? = nil, device: String? = nil, rate: Double? = nil, shakes: Int,
            sensitivity: String, message: String? = nil, frame: String? = nil
        ) {
            self.state = state
            self.driver = driver
            self.device = device
            self.rate = rate
            self.shakes = shakes
            self.sensitivity = sensitivity
            self.message = message
            self.frame = frame
        }
    }

    /// How hard a shake must be to count.
    public enum Sensitivity: String, Codable, Equatable, Sendable, CaseIterable {
        case light, medium, hard
    }

    /// Settings that change live and are kept across restarts.
    public struct Settings: Codable, Equatable, Sendable {
        public var sound: Bool
        public var volume: Double
        public var sensitivity: Sensitivity

        public init(sound: Bool, volume: Double, sensitivity: Sensitivity) {
            self.sound = sound
            self.volume = volume
            self.sensitivity = sensitivity
        }
    }
}

extension ShakyAPI {
    /// No parameters.
    public struct Empty: Codable, Equatable, Sendable {
        public init() {}
    }

    /// `Game.New`.
    public struct NewGame: Codable, Equatable, Sendable {
        public var teams: [String]
        public var packs: [String]?
        public var questions: Int?
        public var difficulty: DifficultyFilter?
        public var seed: Int?
        public var rules: Rules?
        public var replace: Bool?

        public init(
            teams: [String], packs: [String]? = nil, questions: Int? = nil, difficulty: DifficultyFilter? = nil,
            seed: Int? = nil, rules: Rules? = nil, replace: Bool? = nil
        ) {
            self.teams = teams
            self.packs = packs
            self.questions = questions
            self.difficulty = difficulty
            self.seed = seed
            self.rules = rules
            self.replace = replace
        }
    }

    /// `Game.Buzz`.
    public struct TeamParameter: Codable, Equatable, Sendable {
        public var team: String

        public init(team: String) { self.team = team }
    }

    /// `Game.Answer`.
    public struct AnswerParameters: Codable, Equatable, Sendable {
        public var team: String
        public var answer: String

        public init(team: String, answer: String) {
            self.team = team
            self.answer = answer
        }
    }

    /// `Game.AdjustScore`.
    public struct AdjustScoreParameters: Codable, Equatable, Sendable {
        public var team: String
        public var delta: Int
        public var reason: String

        public init(team: String, delta: Int, reason: String) {
            self.team = team
            self.delta = delta
            self.reason = reason
        }
    }

    /// `History`, `Leaderboard`.
    public struct LimitParameter: Codable, Equatable, Sendable {
        public var limit: Int?

        public init(limit: Int? = nil) { self.limit = limit }
    }

    /// A reply holding the game's status.
    public struct StatusReply: Codable, Equatable, Sendable {
        public var status: Status

        public init(status: Status) { self.status = status }
    }

    /// `Game.Answer`'s reply.
    public struct AnswerReply: Codable, Equatable, Sendable {
        public var correct: Bool
        public var status: Status

        public init(correct: Bool, status: Status) {
            self.correct = correct
            self.status = status
        }
    }

    /// `Game.Scoreboard`'s reply.
    public struct ScoreboardReply: Codable, Equatable, Sendable {
        public var standings: [Standing]

        public init(standings: [Standing]) { self.standings = standings }
    }

    /// `Game.Watch`'s replies.
    public struct WatchReply: Codable, Equatable, Sendable {
        public var event: Event

        public init(event: Event) { self.event = event }
    }

    /// `Game.History`'s reply.
    public struct HistoryReply: Codable, Equatable, Sendable {
        public var games: [FinishedGame]

        public init(games: [FinishedGame]) { self.games = games }
    }

    /// `Game.Leaderboard`'s reply.
    public struct LeaderboardReply: Codable, Equatable, Sendable {
        public var entries: [LeaderboardEntry]

        public init(entries: [LeaderboardEntry]) { self.entries = entries }
    }

    /// `Packs.Show`, `Create`, `Delete`, `Export`: a pack by name.
    public struct PackName: Codable, Equatable, Sendable {
        public var name: String

        public init(name: String) { self.name = name }
    }

    /// `Packs.Rename`, `Duplicate`.
    public struct PackRename: Codable, Equatable, Sendable {
        public var name: String
        public var newName: String

        public init(name: String, newName: String) {
            self.name = name
            self.newName = newName
        }
    }

    /// `Packs.List`'s reply.
    public struct PackListReply: Codable, Equatable, Sendable {
        public var packs: [Pack]

        public init(packs: [Pack]) { self.packs = packs }
    }

    /// A reply holding one pack.
    public struct PackReply: Codable, Equatable, Sendable {
        public var pack: Pack

        public init(pack: Pack) { self.pack = pack }
    }

    /// `Packs.Show`'s reply.
    public struct PackDetailsReply: Codable, Equatable, Sendable {
        public var pack: Pack
        public var questions: [StoredQuestion]

        public init(pack: Pack, questions: [StoredQuestion]) {
            self.pack = pack
            self.questions = questions
        }
    }

    /// `Packs.AddQuestion`.
    public struct AddQuestion: Codable, Equatable, Sendable {
        public var pack: String
        public var question: Question

        public init(pack: String, question: Question) {
            self.pack = pack
            self.question = question
        }
    }

    /// `Packs.EditQuestion`.
    public struct EditQuestion: Codable, Equatable, Sendable {
        public var id: Int
        public var question: Question

        public init(id: Int, question: Question) {
            self.id = id
            self.question = question
        }
    }

    /// `Packs.DeleteQuestion`.
    public struct QuestionID: Codable, Equatable, Sendable {
        public var id: Int

        public init(id: Int) { self.id = id }
    }

    /// A reply holding one stored question.
    public struct QuestionReply: Codable, Equatable, Sendable {
        public var question: StoredQuestion

        public init(question: StoredQuestion) { self.question = question }
    }

    /// `Packs.Search`.
    public struct SearchQuestions: Codable, Equatable, Sendable {
        public var text: String
        public var pack: String?
        public var limit: Int?

        public init(text: String, pack: String? = nil, limit: Int? = nil) {
            self.text = text
            self.pack = pack
            self.limit = limit
        }
    }

    /// `Packs.Search`'s reply.
    public struct QuestionsReply: Codable, Equatable, Sendable {
        public var questions: [StoredQuestion]

        public init(questions: [StoredQuestion]) { self.questions = questions }
    }

    /// `Packs.Import`.
    public struct ImportPack: Codable, Equatable, Sendable {
        public var data: String
        public var format: PackFormat
        public var name: String?

        public init(data: String, format: PackFormat, name: String? = nil) {
            self.data = data
            self.format = format
            self.name = name
        }
    }

    /// `Packs.Export`.
    public struct ExportPack: Codable, Equatable, Sendable {
        public var name: String
        public var format: PackFormat

        public init(name: String, format: PackFormat) {
            self.name = name
            self.format = format
        }
    }

    /// `Packs.Export`'s reply.
    public struct ExportReply: Codable, Equatable, Sendable {
        public var data: String

        public init(data: String) { self.data = data }
    }

    /// `Sensor.Status`'s reply.
    public struct SensorReply: Codable, Equatable, Sendable {
        public var sensor: SensorStatus

        public init(sensor: SensorStatus) { self.sensor = sensor }
    }

    /// `Settings.Set`.
    public struct SetSettings: Codable, Equatable, Sendable {
        public var sound: Bool?
        public var volume: Double?
        public var sensitivity: Sensitivity?

        public init(sound: Bool? = nil, volume: Double? = nil, sensitivity: Sensitivity? = nil) {
            self.sound = sound
            self.volume = volume
            self.sensitivity = sensitivity
        }
    }

    /// `Settings.Get`/`Set`'s reply.
    public struct SettingsReply: Codable, Equatable, Sendable {
        public var settings: Settings

        public init(settings: Settings) { self.settings = settings }
    }
}

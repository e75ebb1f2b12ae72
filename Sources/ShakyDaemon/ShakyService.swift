import Foundation
import Logging
import ShakyProtocol
import ShakyStore
import TriviaEngine

/// Shaky Words over Varlink: the four interfaces, each method mapped onto the runtime or the store.
///
/// The same ``VarlinkService`` answers a real socket and in-process calls (`service.handle(_:from:send:)`), so
/// tests run one body both ways.
public enum ShakyService {
    /// The product version reported by `org.varlink.service.GetInfo`.
    public static let version = "0.1.0"

    /// Methods any local user may call; every other method needs root, the daemon's user or group `shaky`.
    public static let openMethods: Set<String> = [
        "io.shakywords.Game.Status", "io.shakywords.Game.Scoreboard", "io.shakywords.Game.Watch",
        "io.shakywords.Game.History", "io.shakywords.Game.Leaderboard",
        "io.shakywords.Packs.List", "io.shakywords.Packs.Show", "io.shakywords.Packs.Search",
        "io.shakywords.Packs.Export", "io.shakywords.Sensor.Status", "io.shakywords.Settings.Get",
    ]

    /// How many events a watcher may fall behind before it is disconnected.
    public static let watcherQueueLimit = 256

    /// Builds the service.
    public static func make(
        runtime: GameRuntime, database: AppDatabase, settings: SettingsController,
        accessPolicy: any VarlinkAccessPolicy, logger: Logger
    ) throws -> VarlinkService {
        try VarlinkService(
            vendor: "Shaky Words", product: "shakyd", version: version, url: "https://shakywords.invalid/",
            interfaces: [
                gameInterface(runtime: runtime, database: database),
                packsInterface(database: database),
                sensorInterface(runtime: runtime),
                settingsInterface(settings: settings),
            ],
            accessPolicy: accessPolicy, logger: logger)
    }

    // MARK: io.shakywords.Game

    static func gameInterface(runtime: GameRuntime, database: AppDatabase) throws -> VarlinkInterface {
        typealias API = ShakyAPI
        func move(_ event: GameEvent) -> VarlinkMethod {
            .typed(API.Empty.self) { _, _ in API.StatusReply(status: try await runtime.perform(event)) }
        }
        return try VarlinkInterface(
            description: VarlinkInterface.gameDescription,
            methods: screened([
                "New": .typed(API.NewGame.self) { request, _ in
                    API.StatusReply(status: try await runtime.newGame(request))
                },
                "Next": move(.nextQuestion),
                "Skip": move(.skipQuestion),
                "Pause": move(.pause),
                "Resume": move(.resume),
                "End": move(.endGame),
                "Hint": move(.hint(source: .manual)),
                "Buzz": .typed(API.TeamParameter.self) { request, _ in
                    API.StatusReply(status: try await runtime.perform(.buzz(team: request.team)))
                },
                "Answer": .typed(API.AnswerParameters.self) { request, _ in
                    let (correct, status) = try await runtime.answer(team: request.team, text: request.answer)
                    return API.AnswerReply(correct: correct, status: status)
                },
                "AdjustScore": .typed(API.AdjustScoreParameters.self) { request, _ in
                    let event = GameEvent.adjustScore(team: request.team, delta: request.delta, reason: request.reason)
                    return API.StatusReply(status: try await runtime.perform(event))
                },
                "Status": .typed(API.Empty.self) { _, _ in API.StatusReply(status: try await runtime.status()) },
                "Scoreboard": .typed(API.Empty.self) { _, _ in
                    API.ScoreboardReply(standings: try await runtime.scoreboard())
                },
                "Watch": .stream { request in try await watch(runtime, hangUp: request.hangUp) },
                "History": .typed(API.LimitParameter.self) { request, _ in
                    let games = try storeCall { try database.history(limit: request.limit ?? 20) }
                    return API.HistoryReply(games: games.map(API.FinishedGame.init))
                },
                "Leaderboard": .typed(API.LimitParameter.self) { request, _ in
                    let entries = try storeCall { try database.leaderboard(limit: request.limit) }
                    return API.LeaderboardReply(
                        entries: entries.map {
                            API.LeaderboardEntry(
                                team: $0.team, games: $0.gamesPlayed, wins: $0.wins, points: $0.totalPoints)
                        })
                },
            ]))
    }

    /// A watcher's stream: a bounded queue; a watcher that falls behind is disconnected, never waited for.
    static func watch(
        _ runtime: GameRuntime, hangUp: @escaping @Sendable () -> Void
    ) async throws -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(watcherQueueLimit))
        let id = await runtime.addWatcher { reply in
            switch continuation.yield(reply) {
            case .enqueued:
                return true
            case .dropped:
                continuation.finish(throwing: WatcherOverflow())
                hangUp()
                return false
            case .terminated:
                return false
            @unknown default:
                return false
            }
        }
        continuation.onTermination = { _ in
            Task { await runtime.removeWatcher(id) }
        }
        return stream
    }

    /// A watcher read too slowly and was disconnected.
    struct WatcherOverflow: Error {}

    // MARK: io.shakywords.Packs

    static func packsInterface(database: AppDatabase) throws -> VarlinkInterface {
        typealias API = ShakyAPI
        return try VarlinkInterface(
            description: VarlinkInterface.packsDescription,
            methods: screened(
                [
                    "List": .typed(API.Empty.self) { _, _ in
                        API.PackListReply(packs: try storeCall { try database.packs() }.map(API.Pack.init))
                    },
                    "Show": .typed(API.PackName.self) { request, _ in
                        let details = try storeCall { try database.pack(named: request.name) }
                        return API.PackDetailsReply(
                            pack: API.Pack(details.summary), questions: details.questions.map(API.StoredQuestion.init))
                    },
                    "Create": .typed(API.PackName.self) { request, _ in
                        API.PackReply(pack: API.Pack(try storeCall { try database.createPack(named: request.name) }))
                    },
                    "Rename": .typed(API.PackRename.self) { request, _ in
                        let details = try storeCall {
                            try database.renamePack(request.name, to: request.newName)
                            return try database.pack(named: request.newName)
                        }
                        return API.PackReply(pack: API.Pack(details.summary))
                    },
                    "Delete": .typed(API.PackName.self) { request, _ in
                        try storeCall { try database.deletePack(named: request.name) }
                        return API.Empty()
                    },
                    "Duplicate": .typed(API.PackRename.self) { request, _ in
                        API.PackReply(
                            pack: API.Pack(
                                try storeCall { try database.duplicate(pack: request.name, newName: request.newName) }))
                    },
                    "AddQuestion": .typed(API.AddQuestion.self) { request, _ in
                        let stored = try storeCall {
                            try database.addQuestion(request.question.engineQuestion, toPack: request.pack)
                        }
                        return API.QuestionReply(question: API.StoredQuestion(stored))
                    },
                    "EditQuestion": .typed(API.EditQuestion.self) { request, _ in
                        let stored = try storeCall {
                            try database.updateQuestion(id: Int64(request.id), to: request.question.engineQuestion)
                        }
                        return API.QuestionReply(question: API.StoredQuestion(stored))
                    },
                    "DeleteQuestion": .typed(API.QuestionID.self) { request, _ in
                        try storeCall { try database.deleteQuestion(id: Int64(request.id)) }
                        return API.Empty()
                    },
                    "Search": .typed(API.SearchQuestions.self) { request, _ in
                        let found = try storeCall {
                            try database.searchQuestions(
                                matching: request.text, inPack: request.pack, limit: request.limit ?? 50)
                        }
                        return API.QuestionsReply(questions: found.map(API.StoredQuestion.init))
                    },
                    "Import": .typed(API.ImportPack.self) { request, _ in
                        let format: PackFileFormat = request.format == .json ? .json : .csv
                        let pack = try storeCall {
                            try database.importPack(Data(request.data.utf8), format: format, name: request.name)
                        }
                        return API.PackReply(pack: API.Pack(pack))
                    },
                    "Export": .typed(API.ExportPack.self) { request, _ in
                        let format: PackFileFormat = request.format == .json ? .json : .csv
                        let data = try storeCall { try database.exportPack(named: request.name, format: format) }
                        return API.ExportReply(data: String(decoding: data, as: UTF8.self))
                    },
                ], multiLine: Self.multiLineParameters, unchecked: Self.uncheckedParameters))
    }

    /// The parameters that may hold line feeds and tabs: a question's text.
    static let multiLineParameters: Set<String> = ["question.text"]
    /// The parameters checked elsewhere: a pack file to import, whose import names the line at fault.
    static let uncheckedParameters: Set<String> = ["data"]

    /// `methods`, each refusing with `InvalidParameter` (naming the parameter) a call whose strings hold a
    /// character ``TerminalText`` refuses, before the method runs: every string a client sends here may end up
    /// on a terminal (team names, pack names, questions, answers, alternates, reasons).
    static func screened(
        _ methods: [String: VarlinkMethod], multiLine: Set<String> = [], unchecked: Set<String> = []
    ) -> [String: VarlinkMethod] {
        methods.mapValues { method in
            VarlinkMethod(requiresMore: method.requiresMore) { request in
                let parameters = JSONValue.object(request.parameters)
                if let path = parameters.firstUnsafeString(multiLine: multiLine, unchecked: unchecked) {
                    throw VarlinkReplyError.invalidParameter(path)
                }
                return try await method.handler(request)
            }
        }
    }

    /// Runs a store call, turning its errors into the Packs interface's errors.
    static func storeCall<T>(_ body: () throws -> T) throws(VarlinkReplyError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error.packsReplyError
        } catch {
            throw VarlinkReplyError(
                "\(ShakyAPI.packsInterface).StorageFailed", parameters: ["message": .string("\(error)")])
        }
    }

    // MARK: io.shakywords.Sensor and io.shakywords.Settings

    static func sensorInterface(runtime: GameRuntime) throws -> VarlinkInterface {
        try VarlinkInterface(
            description: VarlinkInterface.sensorDescription,
            methods: [
                "Status": .typed(ShakyAPI.Empty.self) { _, _ in
                    ShakyAPI.SensorReply(sensor: await runtime.sensorStatus())
                }
            ])
    }

    static func settingsInterface(settings: SettingsController) throws -> VarlinkInterface {
        try VarlinkInterface(
            description: VarlinkInterface.settingsDescription,
            methods: [
                "Get": .typed(ShakyAPI.Empty.self) { _, _ in
                    ShakyAPI.SettingsReply(settings: await settings.current())
                },
                "Set": .typed(ShakyAPI.SetSettings.self) { request, _ in
                    ShakyAPI.SettingsReply(settings: try await settings.change(request))
                },
            ])
    }
}

extension ShakyAPI.FinishedGame {
    init(_ summary: FinishedGameSummary) {
        self.init(
            id: Int(summary.id), finishedAt: summary.finishedAt.formatted(.iso8601),
            teams: summary.teams.map { ShakyAPI.TeamScore(name: $0.name, score: $0.points) },
            winners: summary.winners)
    }
}

extension StoreError {
    /// This error as the Packs interface names it.
    var packsReplyError: VarlinkReplyError {
        let interface = ShakyAPI.packsInterface
        switch self {
        case .packNotFound(let name):
            return VarlinkReplyError("\(interface).PackNotFound", parameters: ["name": .string(name)])
        case .builtinPackIsReadOnly(let name):
            return VarlinkReplyError("\(interface).PackReadOnly", parameters: ["name": .string(name)])
        case .duplicatePackName(let name):
            return VarlinkReplyError("\(interface).PackExists", parameters: ["name": .string(name)])
        case .questionNotFound(let id):
            return VarlinkReplyError("\(interface).QuestionNotFound", parameters: ["id": .int(Int(id))])
        case .invalidPackName, .invalidQuestion:
            return VarlinkReplyError("\(interface).InvalidPack", parameters: ["message": .string(description)])
        case .importFailed(let line, let field, let problem):
            var parameters: VarlinkObject = ["problem": .string(problem)]
            if let line { parameters["line"] = .int(line) }
            if let field { parameters["field"] = .string(field) }
            return VarlinkReplyError("\(interface).ImportFailed", parameters: parameters)
        default:
            return VarlinkReplyError("\(interface).StorageFailed", parameters: ["message": .string(description)])
        }
    }
}

import Foundation
import Logging
import ShakyCore
import ShakyProtocol
import ShakyStore
import TriviaEngine

/// The game's one inbox: every shake, socket call and timer fire becomes a call on this actor, one at a time,
/// so "buzz" and "time up" never race.
///
/// The runtime owns the ``Game`` and performs what the engine's actions ask: it saves the snapshot in the same
/// step as each change that matters, schedules the engine's wake-ups on an injected clock, plays sound cues and
/// broadcasts events to watchers. A change a client asked for is refused when it cannot be saved.
public actor GameRuntime {
    /// Receives each event for one watcher; returns `false` when the watcher is gone or overflowed.
    public typealias WatcherSink = @Sendable (VarlinkStreamReply) -> Bool

    private let database: AppDatabase
    private let clock: RuntimeClock
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let sound: any SoundPlayer
    private var game: Game?
    private var wakeTask: Task<Void, Never>?
    private var wakeGeneration = 0
    private var watchers: [Int: WatcherSink] = [:]
    private var nextWatcherID = 0
    private var sensor = ShakyAPI.SensorStatus(state: .absent, shakes: 0, sensitivity: "medium")
    private var sensorDemand: (@Sendable (Bool) -> Void)?
    private var statusLine: (@Sendable (String) -> Void)?
    private var lastSaveFailed = false

    /// Creates a runtime; call ``restore()`` before serving.
    public init(
        database: AppDatabase, clock: RuntimeClock, sound: any SoundPlayer, logger: Logger,
        wallClock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.database = database
        self.clock = clock
        self.sound = sound
        self.logger = logger
        self.wallClock = wallClock
    }

    // MARK: Lifecycle

    /// Takes over the saved game, if any: paused, with its remaining times exactly as saved.
    public func restore() throws {
        guard var saved = try database.loadSnapshot() else { return }
        let actions = saved.restore(at: clock.now())
        if !actions.isEmpty { try database.saveSnapshot(saved) }
        game = saved
        logger.info(
            "restored the saved game",
            metadata: ["phase": "\(saved.phase)", "paused": "\(saved.isPaused)"])
        publishStatusLine()
    }

    /// Registers who is told when the sensor should be read (a round is open) or not.
    public func setSensorDemandHandler(_ handler: @escaping @Sendable (Bool) -> Void) {
        sensorDemand = handler
        handler(isRoundOpen)
    }

    /// Registers who is told a one-line summary of the game after each change (systemd's `STATUS=`).
    public func setStatusLineHandler(_ handler: @escaping @Sendable (String) -> Void) {
        statusLine = handler
        publishStatusLine()
    }

    /// Answers at once: the watchdog's proof that the inbox is not stuck.
    public func ping() -> Bool { true }

    /// Saves the game with its clock brought up to now, stops timers and forgets the watchers (on shutdown; the
    /// server closes their connections).
    /// Returns whether the game (if any) is saved as it stands.
    @discardableResult
    public func shutDown() -> Bool {
        var saved = true
        if game != nil {
            _ = try? handle(.clockAdvanced, fromClient: false)
            if let game {
                do {
                    try database.saveSnapshot(game)
                } catch {
                    saved = false
                    logger.error("cannot save the game on the way out", metadata: ["error": "\(error)"])
                }
            }
        }
        wakeTask?.cancel()
        wakeTask = nil
        watchers.removeAll()
        return saved
    }

    // MARK: Calls

    /// The game as it stands.
    public func status() throws(RuntimeError) -> ShakyAPI.Status {
        guard let game else { throw .noGame }
        return ShakyAPI.Status(game.status(at: clock.now()))
    }

    /// The standings as they stand (final once the game is over).
    public func scoreboard() throws(RuntimeError) -> [ShakyAPI.Standing] {
        guard let game else { throw .noGame }
        let result =
            game.result
            ?? GameResult(
                teams: game.teams, questionsPlayed: game.round?.number ?? 0, questionCount: game.questionCount,
                endedEarly: false)
        return result.standings.map(ShakyAPI.Standing.init)
    }

    /// Starts a new game.
    public func newGame(_ request: ShakyAPI.NewGame) throws(RuntimeError) -> ShakyAPI.Status {
        let replacing = game.map { $0.phase != .gameOver } ?? false
        if replacing, request.replace != true { throw .gameInProgress }
        let pool: [Question]
        do {
            let packs = try request.packs ?? database.packs().map(\.name)
            pool = try database.questions(inPacks: packs, filter: .any)
        } catch let error as StoreError {
            throw .invalidSetup(error.description)
        } catch {
            throw .storageFailed("\(error)")
        }
        let setup = GameSetup(
            teams: request.teams, questionPool: pool, questionCount: request.questions ?? 10,
            difficulty: DifficultyFilter(rawValue: (request.difficulty ?? .any).rawValue) ?? .any,
            settings: try request.rules?.gameSettings() ?? GameSettings(),
            seed: request.seed.map { UInt64(bitPattern: Int64($0)) } ?? UInt64.random(in: .min ... .max))
        let created: Game
        do {
            created = try Game(setup: setup)
        } catch {
            throw .invalidSetup(error.description)
        }
        // Only a valid new game ends the one in play.
        if replacing { try handle(.endGame) }
        do {
            try database.saveSnapshot(created)
        } catch {
            throw .storageFailed("\(error)")
        }
        cancelWake()
        game = created
        logger.info("new game", metadata: ["teams": "\(created.teams.map(\.name))", "seed": "\(created.seed)"])
        broadcast(stateEvent(for: created))
        publishStatusLine()
        sensorDemand?(isRoundOpen)
        return ShakyAPI.Status(created.status(at: clock.now()))
    }

    /// Handles a host or player move and returns the game after it.
    @discardableResult
    public func perform(_ event: GameEvent) throws(RuntimeError) -> ShakyAPI.Status {
        try handle(event)
        return try status()
    }

    /// The team up answers; returns whether the answer was right and the game after it.
    public func answer(team: String, text: String) throws(RuntimeError) -> (correct: Bool, status: ShakyAPI.Status) {
        let actions = try handle(.answer(team: team, text: text))
        let correct = actions.contains { action in
            if case .judged(_, _, true, _) = action { return true }
            return false
        }
        return (correct, try status())
    }

    /// A shake from the sensor: a hint if the rules allow one now; ignored otherwise.
    public func shake() {
        sensor.shakes += 1
        do {
            try handle(.hint(source: .shake), fromClient: false)
        } catch {
            logger.debug("shake ignored", metadata: ["reason": "\(error)"])
        }
    }

    // MARK: Sensor

    /// The accelerometer as last reported.
    public func sensorStatus() -> ShakyAPI.SensorStatus { sensor }

    /// Records the accelerometer's state; watchers hear when it goes or comes back.
    public func updateSensor(_ status: ShakyAPI.SensorStatus) {
        let wasPresent = sensor.state == .ready || sensor.state == .reading
        let isPresent = status.state == .ready || status.state == .reading
        sensor = ShakyAPI.SensorStatus(
            state: status.state, driver: status.driver, device: status.device, rate: status.rate,
            shakes: sensor.shakes, sensitivity: status.sensitivity, message: status.message)
        if wasPresent != isPresent {
            var event = ShakyAPI.Event(kind: .sensor)
            event.sensorPresent = isPresent
            event.sensorDevice = status.device
            broadcast(event)
        }
    }

    // MARK: Watchers

    /// Adds a watcher: it gets the current state at once, then every event. Returns its id.
    public func addWatcher(_ sink: @escaping WatcherSink) -> Int {
        nextWatcherID += 1
        let id = nextWatcherID
        var first = ShakyAPI.Event(kind: .state)
        if let game { first.status = ShakyAPI.Status(game.status(at: clock.now())) }
        if let reply = encode(first), sink(reply) {
            watchers[id] = sink
        }
        return id
    }

    /// Removes a watcher (it hung up).
    public func removeWatcher(_ id: Int) {
        watchers.removeValue(forKey: id)
    }

    /// How many watchers are attached.
    public var watcherCount: Int { watchers.count }

    // MARK: The engine

    /// Whether a question is open and the sensor should be read.
    private var isRoundOpen: Bool {
        guard let game else { return false }
        return game.phase == .indication && !game.isPaused
    }

    @discardableResult
    private func handle(_ event: GameEvent, fromClient: Bool = true) throws(RuntimeError) -> [GameAction] {
        guard var next = game else { throw .noGame }
        let wasOpen = isRoundOpen
        let actions: [GameAction]
        do {
            actions = try next.handle(event, at: clock.now())
        } catch {
            throw .refused(error)
        }
        do {
            // Only a write that happened says saving works; a call that writes nothing proves nothing.
            if try save(next, actions: actions), lastSaveFailed {
                lastSaveFailed = false
                logger.notice("saving works again")
            }
        } catch {
            if fromClient { throw .storageFailed("\(error)") }
            if !lastSaveFailed {
                logger.error("cannot save the game; it goes on in memory", metadata: ["error": "\(error)"])
                lastSaveFailed = true
            }
        }
        game = next
        perform(actions)
        if actions.contains(where: \.isSnapshotWorthy) { publishStatusLine() }
        if wasOpen != isRoundOpen { sensorDemand?(isRoundOpen) }
        return actions
    }

    /// Saves what `actions` changed; returns whether anything was written.
    private func save(_ next: Game, actions: [GameAction]) throws -> Bool {
        for action in actions {
            // A game ended before its first question is nobody's result: it is not recorded in the history.
            if case .gameOver(let result) = action, result.questionsPlayed > 0 {
                try database.finishGame(next, result: result, finishedAt: wallClock())
                return true
            }
        }
        guard actions.contains(where: \.isSnapshotWorthy) else { return false }
        try database.saveSnapshot(next)
        return true
    }

    private func perform(_ actions: [GameAction]) {
        for action in actions {
            switch action {
            case .wake(let delay):
                scheduleWake(at: clock.now() + delay)
            case .cancelWake:
                cancelWake()
            default:
                if let cue = cue(for: action) { sound.play(cue) }
                if let event = ShakyAPI.Event(action) { broadcast(event) }
            }
        }
    }

    private func cue(for action: GameAction) -> SoundCue? {
        switch action {
        case .hintRevealed: return .hint
        case .buzzed(let team, _, _, _):
            let slot = game?.teams.firstIndex { $0.name == team } ?? 0
            return .buzz(slot: slot)
        case .judged(_, let given, let correct, _):
            return correct ? .correct : given == nil ? .timeUp : .wrong
        case .tick(_, let remaining):
            return remaining <= .seconds(5) && remaining > .zero ? .tick : nil
        case .answerRevealed(_, let winner):
            return winner == nil ? .roundOver : nil
        case .gameOver:
            return .gameOver
        default:
            return nil
        }
    }

    private func scheduleWake(at reading: Duration) {
        wakeTask?.cancel()
        wakeGeneration += 1
        let generation = wakeGeneration
        let clock = clock
        wakeTask = Task { [weak self] in
            do {
                try await clock.sleepUntil(reading)
            } catch {
                return
            }
            await self?.wake(generation)
        }
    }

    private func cancelWake() {
        wakeTask?.cancel()
        wakeTask = nil
        wakeGeneration += 1
    }

    private func wake(_ generation: Int) {
        guard generation == wakeGeneration else { return }
        wakeTask = nil
        do {
            try handle(.clockAdvanced, fromClient: false)
        } catch {
            logger.error("the game clock could not advance", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Broadcasting

    private func stateEvent(for game: Game) -> ShakyAPI.Event {
        var event = ShakyAPI.Event(kind: .state)
        event.status = ShakyAPI.Status(game.status(at: clock.now()))
        return event
    }

    private func encode(_ event: ShakyAPI.Event) -> VarlinkStreamReply? {
        do {
            return try VarlinkStreamReply(encoding: ShakyAPI.WatchReply(event: event), continues: true)
        } catch {
            logger.error("cannot encode an event", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func broadcast(_ event: ShakyAPI.Event) {
        guard !watchers.isEmpty, let reply = encode(event) else { return }
        for (id, sink) in watchers where !sink(reply) {
            watchers.removeValue(forKey: id)
            logger.notice("dropped a watcher that stopped reading", metadata: ["watcher": "\(id)"])
        }
    }

    private func publishStatusLine() {
        guard let statusLine else { return }
        guard let game else {
            statusLine("no game; start one with `shaky new`")
            return
        }
        var line = "\(game.phase)"
        if game.isPaused { line += ", paused" }
        if let number = game.round?.number { line += ", question \(number)/\(game.questionCount)" }
        line += ", " + game.teams.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
        statusLine(line)
    }
}

import Foundation
import Logging
import ShakyCore
import ShakyStore
import TriviaEngine

/// The game's one inbox: every shake, socket call and timer fire becomes a call on this actor, one at a time,
/// so "buzz" and "time up" never race.
///
/// The runtime owns the ``Game`` and performs what the engine's actions ask: it saves the snapshot in the same
/// step as each change that matters, schedules the engine's wake-ups on an injected clock, plays sound cues and
/// tells its observer every event (``RuntimeEvent``). A change a client asked for is refused when it cannot be
/// saved. It speaks the engine's and the store's types; the Varlink service maps them to the wire.
///
/// The actor runs on a serial queue of its own (``DispatchQueueExecutor``), not on the shared cooperative pool: saving the snapshot is a
/// synchronous SQLite write, and a slow SD card then blocks only the game's inbox, never the pool that serves
/// the sockets, the sensor and every other task.
public actor GameRuntime {
    /// Hears every event, on the inbox, in order.
    public typealias EventObserver = @Sendable (RuntimeEvent) -> Void

    /// The inbox's own serial queue: every call on the runtime, and its synchronous saves, run there.
    private let inbox = DispatchQueueExecutor(label: "shaky.game-runtime")

    /// The actor's executor: its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { inbox.asUnownedSerialExecutor() }

    private let database: AppDatabase
    private let clock: RuntimeClock
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let sound: any SoundPlayer
    private var game: Game?
    private var wakeTask: Task<Void, Never>?
    private var wakeGeneration = 0
    private var observer: EventObserver?
    private var sensor = SensorReport(state: .absent, shakes: 0, sensitivity: .medium)
    private var sensorDemand: (@Sendable (Bool) -> Void)?
    private var statusLine: (@Sendable (String) -> Void)?
    private var lastSaveFailed = false
    private var earlyPressRule = EarlyPressRule()
    /// Set while a new game ends the one in play, so the history marks that one as replaced.
    private var endingByReplacement = false

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

    /// Saves the game with its clock brought up to now, stops timers and forgets the observer (on shutdown; the
    /// server closes the watchers' connections). Returns whether the game (if any) is saved as it stands.
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
        observer = nil
        return saved
    }

    // MARK: Calls

    /// The game as it stands.
    public func status() throws(RuntimeError) -> GameStatus {
        guard let game else { throw .noGame }
        return game.status(at: clock.now())
    }

    /// The standings as they stand (final once the game is over).
    public func scoreboard() throws(RuntimeError) -> [GameResult.Standing] {
        guard let game else { throw .noGame }
        let result =
            game.result
            ?? GameResult(
                teams: game.teams, questionsPlayed: game.round?.number ?? 0, questionCount: game.questionCount,
                endedEarly: false)
        return result.standings
    }

    /// Starts a new game.
    public func newGame(_ request: NewGameRequest) throws(RuntimeError) -> GameStatus {
        let replacing = game.map { $0.phase != .gameOver } ?? false
        if replacing, !request.replace { throw .gameInProgress }
        let pool: [Question]
        do {
            let packs = try request.packs ?? database.packs().map(\.name)
            pool = try database.questions(inPacks: packs, filter: .any)
        } catch let error as StoreError {
            throw .invalidSetup(error.description)
        } catch {
            throw .storageFailed("\(error)")
        }
        var setup = GameSetup(
            teams: request.teams, questionPool: pool, questionCount: request.questionCount,
            difficulty: request.difficulty, settings: request.settings,
            seed: request.seed ?? UInt64.random(in: .min ... .max))
        setup.isDemo = request.packs == [DemoPack.name]
        let created: Game
        do {
            created = try Game(setup: setup)
        } catch {
            throw .invalidSetup(error.description)
        }
        // Only a valid new game ends the one in play; the history marks it as replaced.
        if replacing {
            endingByReplacement = true
            defer { endingByReplacement = false }
            try handle(.endGame)
        }
        do {
            try database.saveSnapshot(created)
        } catch {
            throw .storageFailed("\(error)")
        }
        cancelWake()
        game = created
        earlyPressRule.reset()
        logger.info("new game", metadata: ["teams": "\(created.teams.map(\.name))", "seed": "\(created.seed)"])
        let status = created.status(at: clock.now())
        observer?(.state(status))
        publishStatusLine()
        sensorDemand?(isRoundOpen)
        return status
    }

    /// Makes a host's or a player's move and returns the game after it.
    @discardableResult
    public func makeMove(_ move: GameEvent) throws(RuntimeError) -> GameStatus {
        try handle(move)
        return try status()
    }

    /// The team up answers; returns whether the answer was right and the game after it.
    public func answer(team: String, text: String) throws(RuntimeError) -> (correct: Bool, status: GameStatus) {
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

    // MARK: Buttons

    /// Sets the early-press rule: `nil` (the default) ignores a press before a question opens; a duration locks
    /// the team out for that long after its early press.
    public func setEarlyPressLockout(_ lockout: Duration?) {
        earlyPressRule = EarlyPressRule(lockout: lockout)
    }

    /// Button presses of teams, released by the reorder window: `age` is how long before now each happened
    /// (from the kernel's event time), `kernelTime` ranks them. Saved and announced like any move; a press
    /// never fails, each gets an outcome.
    public func buttonPresses(
        _ presses: [(team: String, age: Duration, kernelTime: Duration)]
    ) -> [PressOutcome] {
        guard var next = game else { return presses.map { _ in .early } }
        let now = clock.now()
        let teamPresses = presses.map { TeamPress(team: $0.team, pressedAt: now - $0.age, kernelTime: $0.kernelTime) }
        let wasOpen = isRoundOpen
        let (actions, outcomes) = next.handlePresses(teamPresses, rule: &earlyPressRule, at: now)
        do {
            try save(next, actions: actions)
        } catch {
            logger.error("cannot save the game; it goes on in memory", metadata: ["error": "\(error)"])
        }
        game = next
        carryOut(actions)
        if actions.contains(where: \.isSnapshotWorthy) { publishStatusLine() }
        if wasOpen != isRoundOpen { sensorDemand?(isRoundOpen) }
        return outcomes
    }

    /// Tells the observer what happened to the teams' buttons, in order with the game's events (a press's
    /// notice comes after the buzz it made).
    public func announce(_ notice: BuzzerNotice) {
        observer?(.buzzer(notice))
    }

    /// The runtime clock's reading now (what lock-out deadlines are measured on).
    public func clockReading() -> Duration { clock.now() }

    /// The teams of the game in play, in seating order (empty without a game).
    public func teamNames() -> [String] {
        game?.teams.map(\.name) ?? []
    }

    // MARK: Sensor

    /// The accelerometer as last reported, with the shakes counted here.
    public func sensorReport() -> SensorReport { sensor }

    /// Records the accelerometer's state (its shake count is kept); the observer hears when it goes or comes back.
    public func updateSensor(_ report: SensorReport) {
        let wasPresent = sensor.isPresent
        let shakes = sensor.shakes
        sensor = report
        sensor.shakes = shakes
        if wasPresent != report.isPresent { observer?(.sensor(present: report.isPresent, device: report.device)) }
    }

    // MARK: Events

    /// Sets who hears every event from now on (the service's watcher hub).
    public func setEventObserver(_ observer: @escaping EventObserver) {
        self.observer = observer
    }

    /// Runs `body` on the inbox with the game's state now, so no event falls between that state and the ones
    /// the observer hears after it (how a watcher joins).
    public func withCurrentState<Result: Sendable>(
        _ body: @Sendable (RuntimeEvent) throws -> Result
    ) rethrows -> Result {
        try body(.state(game?.status(at: clock.now())))
    }

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
        carryOut(actions)
        if actions.contains(where: \.isSnapshotWorthy) { publishStatusLine() }
        if wasOpen != isRoundOpen { sensorDemand?(isRoundOpen) }
        return actions
    }

    /// Saves what `actions` changed; returns whether anything was written.
    private func save(_ next: Game, actions: [GameAction]) throws -> Bool {
        for action in actions {
            // A game ended before its first question is nobody's result: it is not recorded in the history.
            if case .gameOver(let result) = action, result.questionsPlayed > 0 {
                let kind: FinishedGameKind =
                    endingByReplacement ? .replaced : next.isDemo ? .demo : .played
                try database.finishGame(next, result: result, finishedAt: wallClock(), kind: kind)
                return true
            }
        }
        guard actions.contains(where: \.isSnapshotWorthy) else { return false }
        try database.saveSnapshot(next)
        return true
    }

    /// Does what the engine's actions ask: timers, sound cues, events.
    private func carryOut(_ actions: [GameAction]) {
        for action in actions {
            switch action {
            case .wake(let delay):
                scheduleWake(at: clock.now() + delay)
            case .cancelWake:
                cancelWake()
            default:
                if let cue = SoundCue(for: action, teams: game?.teams ?? []) { sound.play(cue) }
                observer?(.action(action))
            }
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

    private func publishStatusLine() {
        statusLine?(game?.statusLine ?? Game.noGameStatusLine)
    }
}

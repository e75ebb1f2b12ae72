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
/// The actor runs on a thread of its own (``InboxThread``), not where every other task runs (in `shakyd`, the event
/// loop that serves the sockets): saving the snapshot is a synchronous SQLite write, and a slow SD card then blocks
/// only the game's inbox. The thread's wait for work is also the engine's alarm, so a
/// countdown's tick wakes that one thread.
public actor GameRuntime {
    /// Hears every event, on the inbox, in order.
    public typealias EventObserver = @Sendable (RuntimeEvent) -> Void

    /// The inbox's own thread: every call on the runtime, its synchronous saves and the engine's wake-ups run there.
    nonisolated let inbox = InboxThread(name: "shaky-runtime")

    /// The actor's executor: its own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { inbox.asUnownedSerialExecutor() }

    /// The inbox's thread as a task executor: a task that mostly calls the runtime (a sensor's shakes) runs there, and
    /// reaches the runtime without another thread in between.
    nonisolated var inboxTaskExecutor: any TaskExecutor { inbox }

    private let database: AppDatabase
    private let clock: RuntimeClock
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let sound: any SoundPlayer
    private var game: Game?
    /// The engine's next wake-up, on the inbox; made at the first.
    private var wakeAlarm: (any RuntimeAlarm)?
    /// The reading the engine last asked to be woken at (the countdown's next whole second), while a countdown runs.
    private var requestedWake: Duration?
    /// Whether any watcher hears a tick each second (``setTickListeners(_:)``).
    private var ticksHeard: @Sendable () -> Bool = { true }
    /// The running countdown as last told to the watchers that count down on their own clock: its phase and the
    /// reading at which it runs out.
    private var countdownTold: (phase: GamePhase, deadline: Duration)?
    private var observer: EventObserver?
    private var sensor = SensorReport(state: .absent, shakes: 0, sensitivity: .medium)
    private var sensorDemand: (@Sendable (Bool) -> Void)?
    private var statusLine: (@Sendable (String) -> Void)?
    /// Whether the last save failed (or the database was opened read-only and nothing was saved since).
    private var lastSaveFailed = false
    /// Whether a change that goes on unsaved was logged since saving last worked.
    private var unsavedChangeLogged = false
    /// The device whose shake is being handled, so its hint says where it came from.
    private var shakingNow: Shaker?
    /// The game's early-press rule (``GameRules/earlyPressLockout``) and the lock-outs it imposed.
    private var earlyPressRule = EarlyPressRule()
    /// The lock-out a new game takes when `New` does not set one (the daemon's `early-press-lockout`).
    private var defaultEarlyPressLockout: Duration?
    /// The clock's ``RuntimeClock/slept`` when the runtime last read the clock.
    private var sleptSeen: Duration
    /// The shortest sleep of the system (a suspend) that pauses a running countdown.
    static let noticedSleep: Duration = .seconds(1)

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
        sleptSeen = clock.slept()
    }

    // MARK: Lifecycle

    /// Takes over the saved game, if any: paused, with its remaining times exactly as saved.
    ///
    /// When the pause cannot be saved (a full disk), the game is served paused all the same, and the log says so.
    /// A saved game that cannot be read or played on (a damaged or edited file, ``Game/inconsistency``) is set aside
    /// in a file beside the database (``AppDatabase/setAsideSnapshot(at:)``), and the daemon starts without a game:
    /// the error log names the file and the problem.
    public func restore() throws {
        // A database opened read-only has not saved yet: the first save that works is logged as such.
        lastSaveFailed = database.readOnlyReason != nil
        let loaded: Game?
        do {
            loaded = try database.loadSnapshot()
        } catch StoreError.snapshotUnreadable(let problem) {
            setAsideUnreadableSnapshot(problem: problem)
            return
        }
        guard var saved = loaded else { return }
        let actions = saved.restore(at: clock.now())
        if !actions.isEmpty {
            do {
                try database.saveSnapshot(saved)
            } catch {
                logger.error(
                    "cannot save the restored game's pause; it is paused in memory", metadata: ["error": "\(error)"])
                lastSaveFailed = true
            }
        }
        game = saved
        earlyPressRule = EarlyPressRule(lockout: saved.settings.earlyPressLockout)
        logger.info(
            "restored the saved game",
            metadata: ["phase": "\(saved.phase)", "paused": "\(saved.isPaused)"])
        publishStatusLine()
    }

    private func setAsideUnreadableSnapshot(problem: String) {
        do {
            let file = try database.setAsideSnapshot(at: wallClock())
            logger.error(
                "the saved game cannot be played on; it is kept in a file and the daemon starts without a game",
                metadata: ["problem": "\(problem)", "file": "\(file?.path ?? "none")"])
        } catch {
            logger.error(
                "the saved game cannot be played on, nor set aside; the daemon starts without a game",
                metadata: ["problem": "\(problem)", "error": "\(error)"])
        }
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

    /// Registers who says whether any watcher hears a tick each second. While none does, the inbox sleeps through a
    /// countdown's seconds until the last few, whose ticks sound a cue (``SoundCue/countdownCueWindow``); the watchers
    /// that count down on their own clock hear ``RuntimeEvent/countdown(phase:remaining:)`` when the countdown
    /// changes otherwise than by running. Without one, every tick is made.
    public func setTickListeners(_ heard: @escaping @Sendable () -> Bool) {
        ticksHeard = heard
    }

    /// A watcher that hears every tick joined: the countdown ticks from its next whole second again.
    public func tickListenerJoined() {
        if let requestedWake { scheduleWake(at: requestedWake) }
    }

    /// Answers at once: the watchdog's proof that the inbox is not stuck.
    public func ping() -> Bool { true }

    /// Saves the game with its clock brought up to now, stops timers and forgets the observer (on shutdown; the
    /// server closes the watchers' connections). Returns whether the game is saved as it stands, or `nil` when there
    /// is no game.
    @discardableResult
    public func shutDown() -> Bool? {
        var saved: Bool? = nil
        if game != nil {
            saved = true
            _ = try? handle(.clockAdvanced, fromClient: false)
            if let game {
                do {
                    try database.saveSnapshot(game)
                } catch  where !lastSaveFailed && !game.isCountdownRunning {
                    // The last save worked and nothing has changed since (no countdown runs): it holds the game.
                    logger.notice(
                        "cannot save the game again on the way out; its last save holds it as it stands",
                        metadata: ["error": "\(error)"])
                } catch {
                    saved = false
                    logger.error("cannot save the game on the way out", metadata: ["error": "\(error)"])
                }
            }
        }
        wakeAlarm?.clear()
        observer = nil
        return saved
    }

    // MARK: Calls

    /// The game as it stands.
    public func status() throws(RuntimeError) -> GameStatus {
        let now = readClock()
        guard let game else { throw .noGame }
        return game.status(at: now)
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
            // Every pack, but the demo's (which `shaky demo` makes): it repeats questions of the built-in packs.
            let packs = try request.packs ?? database.packs().map(\.name).filter { $0 != DemoPack.name }
            pool = try database.questions(inPacks: packs, filter: .any)
        } catch StoreError.packNotFound(let name) {
            // A name typed without its accents ("soiree" for "Soirée") is the one pack that matches it so.
            let packs = (try? database.packs().map(\.name)) ?? []
            let guess = TextFold.onlyMatch(for: name, among: packs).map { "; did you mean “\($0)”?" } ?? ""
            throw .invalidSetup("there is no pack named “\(name)”\(guess) (`shaky pack list` lists them)")
        } catch let error as StoreError {
            throw .invalidSetup(error.description)
        } catch {
            throw .storageFailed("\(error)")
        }
        var settings = request.settings
        // Zero (or less) turns the rule off; not given in `New` at all, the daemon's default applies.
        let lockout = request.earlyPressLockout ?? settings.earlyPressLockout ?? defaultEarlyPressLockout
        settings.earlyPressLockout = lockout.flatMap { $0 > .zero ? $0 : nil }
        var setup = GameSetup(
            teams: request.teams, questionPool: pool, questionCount: request.questionCount,
            difficulty: request.difficulty, settings: settings,
            seed: request.seed ?? UInt64.random(in: .min ... .max))
        setup.isDemo = request.packs == [DemoPack.name]
        let created: Game
        do {
            created = try Game(setup: setup)
        } catch .notEnoughQuestions where pool.isEmpty {
            throw .invalidSetup(Self.noQuestionsMessage(packs: request.packs, database: database))
        } catch {
            throw .invalidSetup(error.description)
        }
        // Only a valid new game ends the one in play; the history marks it as replaced. The old game's line in the
        // history and the new game are saved in one transaction: a disk that refuses either leaves both as they were.
        var replaced: (game: Game, actions: [GameAction], at: Duration)?
        if replacing, var ending = game {
            let now = readClock()
            let actions: [GameAction]
            do {
                actions = try ending.handle(.endGame, at: now)
            } catch {
                throw .refused(error)
            }
            replaced = (ending, actions, now)
        }
        do {
            try database.transaction { transaction in
                if let replaced, let result = Self.playedResult(of: replaced.actions) {
                    _ = try transaction.finishGame(
                        replaced.game, result: result, finishedAt: wallClock(), kind: .replaced)
                }
                try transaction.saveSnapshot(created)
            }
        } catch {
            throw refusedChange(error)
        }
        noteSaveWorked()
        if let replaced {
            game = replaced.game
            carryOut(replaced.actions, at: replaced.at)
        }
        cancelWake()
        game = created
        countdownTold = nil
        earlyPressRule = EarlyPressRule(lockout: created.settings.earlyPressLockout)
        // The seed as `shaky new --seed` and the Game interface take it, to replay the game.
        let seed = Int64(bitPattern: created.seed)
        logger.info("new game", metadata: ["teams": "\(created.teams.map(\.name))", "seed": "\(seed)"])
        let status = created.status(at: clock.now())
        observer?(.state(status))
        publishStatusLine()
        sensorDemand?(isRoundOpen)
        return status
    }

    /// Why a new game has no question at all to draw from, and how to get some (rather than "only 0 eligible
    /// questions"): `chosen` are the packs the host named, `nil` for every pack.
    private static func noQuestionsMessage(packs chosen: [String]?, database: AppDatabase) -> String {
        let list = "; `shaky pack list` lists the packs"
        let builtin = "reinstall Shaky Words for the built-in packs it comes with"
        if let chosen {
            let named = chosen.map { "“\($0)”" }.spokenList("and")
            return (chosen.count == 1 ? "the pack \(named) holds" : "the packs \(named) hold")
                + " no questions: add some with `shaky pack add PACK`, or choose another pack" + list
        }
        let hasPacks = ((try? database.packs()) ?? []).contains { $0.name != DemoPack.name }
        return hasPacks
            ? "none of the quiz packs holds a question: add some with `shaky pack add PACK`, import a pack with "
                + "`shaky pack import FILE`, or \(builtin)" + list
            : "there are no quiz packs to draw questions from: import one with `shaky pack import FILE`, or "
                + builtin + list
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

    /// The host overrules the last judgement; returns what was overruled and the game after it.
    public func overrule() throws(RuntimeError) -> (overruling: Overruling?, status: GameStatus) {
        let actions = try handle(.overrule)
        let overruling = actions.lazy.compactMap { action -> Overruling? in
            guard case .judgementOverruled(let team, let given, let correct, let delta, let score) = action else {
                return nil
            }
            return Overruling(team: team, given: given, correct: correct, pointsDelta: delta, newScore: score)
        }.first
        return (overruling, try status())
    }

    /// A shake from the sensor (or from `shaker`, the board's sensor or a motion controller): a hint if the rules
    /// allow one now; ignored otherwise. Watchers hear which device gave the hint and, for a controller whose
    /// buttons are exactly one team's, whose team it is.
    public func shake(from shaker: Shaker? = nil) {
        sensor.shakes += 1
        shakingNow = shaker.map(withTeam)
        defer { shakingNow = nil }
        do {
            try handle(.hint(source: .shake), fromClient: false)
        } catch {
            logger.debug(
                "shake ignored", metadata: ["reason": "\(error)", "device": "\(shaker?.device ?? "-")"])
        }
    }

    /// `shaker` with its team: the one team of the game with a button on the controller's buttons.
    private func withTeam(_ shaker: Shaker) -> Shaker {
        guard shaker.kind == .controller, let buttons = shaker.buttons, let game else { return shaker }
        let keys = Set(
            ((try? database.buzzerAssignments()) ?? []).filter { $0.device == buttons }.map(\.teamKey))
        let teams = game.teams.filter { keys.contains(TeamNameKey.of($0.name)) }
        var named = shaker
        named.team = teams.count == 1 ? teams[0].name : nil
        return named
    }

    // MARK: Buttons

    /// Sets the early-press rule new games take when `New` does not say: `nil` (the default) ignores a press
    /// before a question opens; a duration locks the team out for that long after its early press. The game in
    /// play keeps its own rule.
    public func setDefaultEarlyPressLockout(_ lockout: Duration?) {
        defaultEarlyPressLockout = lockout
    }

    /// Button presses of teams, released by the reorder window: `age` is how long before now each happened
    /// (from the kernel's event time), `kernelTime` ranks them. Saved and announced like any move; a press
    /// never fails, each gets an outcome.
    public func buttonPresses(
        _ presses: [(team: String, age: Duration, kernelTime: Duration)]
    ) -> [PressOutcome] {
        let now = readClock()
        guard var next = game else { return presses.map { _ in .early } }
        let teamPresses = presses.map { TeamPress(team: $0.team, pressedAt: now - $0.age, kernelTime: $0.kernelTime) }
        let (actions, outcomes) = next.handlePresses(teamPresses, rule: &earlyPressRule, at: now)
        adopt(next, actions: actions, at: now)
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
        let now = readClock()
        return try body(.state(game?.status(at: now)))
    }

    // MARK: The engine

    /// Whether a question is open and the sensor should be read.
    private var isRoundOpen: Bool {
        guard let game else { return false }
        return game.phase == .indication && !game.isPaused
    }

    @discardableResult
    private func handle(_ event: GameEvent, fromClient: Bool = true) throws(RuntimeError) -> [GameAction] {
        let now = readClock()
        guard var next = game else { throw .noGame }
        let wasOpen = isRoundOpen
        let wasOver = next.phase == .roundOver
        let actions: [GameAction]
        do {
            actions = try next.handle(event, at: now)
        } catch {
            throw .refused(error)
        }
        do {
            // Only a write that happened says saving works; a call that writes nothing proves nothing.
            if try save(next, actions: actions) { noteSaveWorked() }
        } catch {
            if fromClient { throw refusedChange(error) }
            noteUnsavedChange(error)
        }
        game = next
        // A question over, opened again by an overrule (right after all wrong: the next team answers): the watchers
        // put its letters away when its answer was revealed, and no event since carries them. The whole game does,
        // before the countdown's time left, whose line would otherwise be drawn without them. (Only an overrule: the
        // next question's `roundStarted` carries its letters itself.)
        var wholeGame: (() -> Void)?
        if wasOver, case .overrule = event, next.phase.hasTimer {
            wholeGame = { self.observer?(.state(next.status(at: now))) }
        }
        carryOut(actions, at: now, before: wholeGame)
        if actions.contains(where: \.isSnapshotWorthy) { publishStatusLine() }
        if wasOpen != isRoundOpen { sensorDemand?(isRoundOpen) }
        return actions
    }

    /// The clock's reading now; first pauses a countdown that the system's sleep (a tablet suspended by its lid, its
    /// power button or its idle timer) interrupted.
    ///
    /// The runtime's clock counts a suspend (setting the wall clock moves it not at all), so without this a round
    /// would run out while nobody can play, and end at once on waking. The countdown is paused as it stood when the
    /// system went to sleep, charged only the time the system was awake; the host resumes it, as after a restart.
    private func readClock() -> Duration {
        let now = clock.now()
        let slept = clock.slept()
        let asleep = slept - sleptSeen
        sleptSeen = slept
        guard asleep >= Self.noticedSleep, var next = game, next.isCountdownRunning else { return now }
        let actions: [GameAction]
        do {
            actions = try next.handle(.pause, at: now - asleep)
        } catch {
            return now
        }
        logger.notice(
            "the system was asleep; the game is paused",
            metadata: [
                "asleep": "\(GameError.seconds(asleep))",
                "remaining": "\(next.remainingTime(at: now).map(GameError.seconds) ?? "none")",
            ])
        adopt(next, actions: actions, at: now)
        return now
    }

    /// Takes `next`, the game after `actions` that nobody can refuse (the buttons' presses, a suspend's pause), as
    /// the game: saved if the disk lets it (a failure is logged, and the game goes on in memory), then carried out
    /// and announced.
    private func adopt(_ next: Game, actions: [GameAction], at now: Duration) {
        let wasOpen = isRoundOpen
        do {
            if try save(next, actions: actions) { noteSaveWorked() }
        } catch {
            noteUnsavedChange(error)
        }
        game = next
        carryOut(actions, at: now)
        if actions.contains(where: \.isSnapshotWorthy) { publishStatusLine() }
        if wasOpen != isRoundOpen { sensorDemand?(isRoundOpen) }
    }

    /// The result `actions` end a game with, when the history records it: a game ended before its first question is
    /// nobody's result.
    private static func playedResult(of actions: [GameAction]) -> GameResult? {
        for case .gameOver(let result) in actions where result.questionsPlayed > 0 { return result }
        return nil
    }

    /// Saves what `actions` changed; returns whether anything was written.
    private func save(_ next: Game, actions: [GameAction]) throws -> Bool {
        if let result = Self.playedResult(of: actions) {
            try database.finishGame(next, result: result, finishedAt: wallClock(), kind: next.isDemo ? .demo : .played)
            return true
        }
        // A correction after the end: the game's line in the history takes the new result, in place.
        for case .resultCorrected(let result) in actions {
            try database.correctFinishedGame(next, result: result)
            return true
        }
        guard actions.contains(where: \.isSnapshotWorthy) else { return false }
        try database.saveSnapshot(next, durability: Self.durability(of: actions))
        return true
    }

    /// How far the save of `actions` must go before they are announced: to the disk, so that a power cut loses
    /// nothing announced, except for hints alone. A hint's save is only written (a crash keeps it; a power cut
    /// before the next save may take it back): syncing the log to an SD card would take more than the 30 ms a shake
    /// has to show its hint, and the next save that matters takes the hint to the disk with it.
    static func durability(of actions: [GameAction]) -> SaveDurability {
        let hintsOnly = actions.allSatisfy { action in
            if case .hintRevealed = action { return true }
            return !action.isSnapshotWorthy
        }
        return hintsOnly ? .written : .disk
    }

    /// Logs, once, that saving works again after a failure (or a start on a database that could not be written).
    private func noteSaveWorked() {
        guard lastSaveFailed else { return }
        lastSaveFailed = false
        unsavedChangeLogged = false
        logger.notice("saving works again")
    }

    /// The error a client's change is refused with when it cannot be saved, so that nothing is lost; logged once, and
    /// the next save that works says saving works again.
    private func refusedChange(_ error: any Error) -> RuntimeError {
        if !lastSaveFailed {
            logger.error("cannot save the game; changes are refused", metadata: ["error": "\(error)"])
            lastSaveFailed = true
        }
        return .storageFailed("\(error)")
    }

    /// Logs, once until saving works again, that a change goes on in memory unsaved.
    private func noteUnsavedChange(_ error: any Error) {
        if !unsavedChangeLogged {
            logger.error("cannot save the game; it goes on in memory", metadata: ["error": "\(error)"])
            unsavedChangeLogged = true
        }
        lastSaveFailed = true
    }

    /// Does what the engine's actions ask: timers, sound cues, events.
    /// `now` is the reading the engine made the actions at: a wake-up's delay counts from it (a later reading would
    /// put the wake-up late by however long the events took to hand out, and a watcher may already have heard them).
    /// Plays the cues and tells the watchers of `actions`, then, after `beforeCountdown`, the countdown's change.
    private func carryOut(_ actions: [GameAction], at now: Duration, before beforeCountdown: (() -> Void)? = nil) {
        for action in actions {
            switch action {
            case .wake(let delay):
                requestedWake = now + delay
                scheduleWake(at: alarmReading(for: now + delay, at: now))
            case .cancelWake:
                cancelWake()
            case .paused:
                observer?(.paused(remaining: game?.remainingTime(at: now)))
            case .hintRevealed where shakingNow != nil:
                if let cue = SoundCue(for: action, teams: game?.teams ?? []) { sound.play(cue) }
                if let shaker = shakingNow { observer?(.shakeHint(action, shaker)) }
            default:
                if let cue = SoundCue(for: action, teams: game?.teams ?? []) { sound.play(cue) }
                observer?(.action(action))
            }
        }
        beforeCountdown?()
        tellCountdownChange(at: now)
    }

    /// When the inbox wakes for the engine's wake-up at `requested`: then, while a watcher hears every tick; while
    /// none does, at the countdown's last seconds, whose ticks sound a cue, or ``longestCountdownSleep`` from now if
    /// that is sooner. The engine catches up the seconds it slept through in one step (one tick, for the cue).
    private func alarmReading(for requested: Duration, at now: Duration) -> Duration {
        guard !ticksHeard(), let remaining = game?.remainingTime(at: now) else { return requested }
        return max(requested, min(now + remaining - SoundCue.countdownCueWindow, now + Self.longestCountdownSleep))
    }

    /// The longest the inbox sleeps while a countdown runs that no watcher hears tick, so that the runtime sees a
    /// suspend soon and pauses the countdown (``readClock()``): the alarm's deadline is on CLOCK_BOOTTIME, which
    /// counts a suspend, so one of this long or longer is seen as the system wakes, and a shorter one at most this
    /// long after it began.
    static let longestCountdownSleep: Duration = .seconds(5)

    /// Tells the watchers that count down on their own clock the countdown's time left, when it changed otherwise
    /// than by running since they were last told (a question opened, a buzz cut the time, a team is up, play
    /// resumed); a countdown that stopped is told by the events that stopped it.
    private func tellCountdownChange(at now: Duration) {
        guard let game, game.isCountdownRunning, let remaining = game.remainingTime(at: now) else {
            countdownTold = nil
            return
        }
        let deadline = now + remaining
        if let told = countdownTold, told.phase == game.phase, told.deadline == deadline { return }
        countdownTold = (game.phase, deadline)
        observer?(.countdown(phase: game.phase, remaining: remaining))
    }

    /// Wakes the engine at `reading`: the alarm fires on the inbox's own thread, so a countdown's tick reaches the
    /// watchers' connections with no task in between.
    private func scheduleWake(at reading: Duration) {
        if wakeAlarm == nil {
            wakeAlarm = clock.makeAlarm(inbox) { [weak self] in self?.wakeOnInbox() }
        }
        wakeAlarm?.set(at: reading)
    }

    /// ``wake()``, from the alarm, which fires on the inbox's thread.
    private nonisolated func wakeOnInbox() {
        assumeIsolated { $0.wake() }
    }

    private func cancelWake() {
        requestedWake = nil
        wakeAlarm?.clear()
    }

    private func wake() {
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

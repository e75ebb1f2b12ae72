import Logging
import ShakyCore
import ShakyDrivers
import ShakyStore
import TriviaEngine
import Varlink

/// Turns presses on buzzer devices into teams' buzzes, lets teams join by pressing, keeps the assignments in
/// the database, and lights each buzzing team's lights until the round ends.
///
/// Device events (from ``EvdevBuzzerReader`` or a test) arrive through ``handle(_:)``; the game's actions
/// arrive through ``follow(_:)`` (the runtime's events). A press on a button nobody owns does nothing outside of
/// joining, and neither does, while joining, a press before a question on a button another team took in it: both
/// are told to watchers, at most once per button every ``pressFeedbackInterval``, so the host can tell a dead
/// button from one nobody has (a keyboard's keys nobody has are not: on a keyboard that is not grabbed they are the
/// host typing).
public actor BuzzerService {
    /// A device as last seen, and whether it is plugged in now.
    public struct Device: Sendable, Equatable {
        /// What discovery found.
        public var candidate: BuzzerCandidate
        /// Whether it is there now (a gone device keeps its buttons' teams).
        public var isPresent: Bool
    }

    private let runtime: GameRuntime
    private let database: AppDatabase
    private let leds: LEDs
    private let teamLights: [BuzzerLight]
    private let logger: Logger
    /// Whether the daemon reads buzzer devices at all (`--buzzers auto`); with `none` no press can come.
    public nonisolated let readsDevices: Bool
    private var devices: [String: Device] = [:]
    /// What devices and a failing store can repeat (a device coming and going, a save failing at every press) is
    /// logged at most once a minute.
    private var logThrottle = LogThrottle()
    private var join: ButtonJoin?
    /// Presses that do nothing are told at most once per button every ``pressFeedbackInterval`` of kernel time.
    private var pressFeedback = LogThrottle(interval: pressFeedbackInterval)
    private var lit: Set<BuzzerLight> = []
    private var noticeHandler: (@Sendable (BuzzerNotice) -> Void)?
    private var watchers: [Int: @Sendable (BuzzerNotice) -> Bool] = [:]
    private var nextWatcherID = 0

    /// The runtime's executor, its inbox thread: a press goes on to the runtime without a hop to another thread, and
    /// a join's assignment, whose save waits for the disk to sync, never holds up the event loop.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { runtime.unownedExecutor }

    /// Whether keyboards are grabbed (`--grab-keyboards`): only then is a keyboard's key nobody has a button press
    /// worth telling, rather than the host typing.
    private let grabsKeyboards: Bool

    /// Creates the service; `teamLights` are lights tied to a team slot rather than a device (`shaky-teamN`);
    /// `readsDevices` is false when the daemon reads no buzzers (`--buzzers none`); `grabsKeyboards` says whether
    /// keyboards are grabbed (`--grab-keyboards`).
    public init(
        runtime: GameRuntime, database: AppDatabase, leds: LEDs = LEDs(), teamLights: [BuzzerLight] = [],
        readsDevices: Bool = true, grabsKeyboards: Bool = false, logger: Logger
    ) {
        self.readsDevices = readsDevices
        self.grabsKeyboards = grabsKeyboards
        self.runtime = runtime
        self.database = database
        self.leds = leds
        self.teamLights = teamLights
        self.logger = logger
    }

    /// The least kernel time between two notices of presses that did nothing on one button: a button held down
    /// repeats no press, but one hammered on must not flood the board and the host's screen.
    public static let pressFeedbackInterval: Duration = .seconds(3)

    /// Registers who hears about joins, presses, lock-outs and devices going and coming back.
    public func setNoticeHandler(_ handler: @escaping @Sendable (BuzzerNotice) -> Void) {
        noticeHandler = handler
    }

    /// Adds a watcher of the notices; it is dropped when `sink` returns `false`. Returns its id.
    public func addWatcher(_ sink: @escaping @Sendable (BuzzerNotice) -> Bool) -> Int {
        nextWatcherID += 1
        watchers[nextWatcherID] = sink
        return nextWatcherID
    }

    /// How many watchers are attached.
    public var watcherCount: Int { watchers.count }

    /// Removes a watcher (it hung up).
    public func removeWatcher(_ id: Int) {
        watchers.removeValue(forKey: id)
    }

    private func notify(_ notice: BuzzerNotice) async {
        noticeHandler?(notice)
        for (id, sink) in watchers where !sink(notice) { watchers.removeValue(forKey: id) }
        await runtime.announce(notice)
    }

    /// The devices seen so far, by identity.
    public func knownDevices() -> [Device] {
        devices.values.sorted { $0.candidate.devicePath < $1.candidate.devicePath }
    }

    /// The joining in progress, if any.
    public func joining() -> ButtonJoin? { join }

    /// Starts press-to-join for `teams` (the game's teams when `nil`); returns the teams asked, in order.
    @discardableResult
    public func startJoin(teams: [String]? = nil) async -> [String] {
        let names = await teamsToAsk(teams)
        await endJoin(.replaced)
        join = names.isEmpty ? nil : ButtonJoin(teams: names)
        if let asking = join?.asking { await notify(.joinAsking(team: asking)) }
        return names
    }

    /// The teams a joining asks: `teams`, or the game's when `nil`.
    public func teamsToAsk(_ teams: [String]?) async -> [String] {
        guard let teams else { return await runtime.teamNames() }
        // Each team once, as first named: a team named twice was asked again after it pressed, and its next press
        // (any free button) took the place of the first.
        var seen = Set<String>()
        return teams.filter { seen.insert(TeamNameKey.of($0)).inserted }
    }

    /// Releases the buttons of `team` (of every team when `nil`), stops any joining, turns the lights off and tells
    /// the watchers. Returns how many buttons were released.
    public func clear(team: String?) async throws -> Int {
        join = nil
        let count = try database.clearBuzzerAssignments(team: team)
        allOff()
        await notify(.cleared(team: team, count: count))
        return count
    }

    /// The device with this identity or node, if it was seen.
    public func device(named text: String) -> Device? {
        devices[text] ?? devices.values.first { $0.candidate.devicePath == text }
    }

    /// Takes one event from the buzzer devices.
    public func handle(_ event: BuzzerDeviceEvent) async {
        switch event {
        case .attached(let candidate):
            devices[candidate.identity] = Device(candidate: candidate, isPresent: true)
            logger.info(
                "buzzer device ready",
                metadata: [
                    "device": "\(candidate.devicePath)", "name": "\(candidate.name)", "id": "\(candidate.identity)",
                ])
            if ButtonID.isNumbered(candidate.identity) {
                logThrottle.log(
                    .notice,
                    """
                    buzzer devices share what identifies them (a port, or a name with no serial) and are numbered in \
                    the order they were found, which can change when one is plugged in again or the daemon restarts: \
                    have their teams join again (`shaky buzzers join`) to be sure whose button is whose
                    """, key: "numbered",
                    metadata: ["device": "\(candidate.devicePath)", "id": "\(candidate.identity)"],
                    to: logger)
            }
        case .gone(let identity, let path):
            devices[identity]?.isPresent = false
            // A device that keeps coming and going (a loose cable, a pad reconnecting) is logged once a minute.
            logThrottle.log(
                .notice, "buzzer device gone; its teams keep their buttons", key: "gone \(identity)",
                metadata: ["device": "\(path)"], to: logger)
            await notify(.deviceGone(identity: identity, devicePath: path))
        case .back(let identity, let path):
            devices[identity]?.isPresent = true
            devices[identity]?.candidate.devicePath = path
            logThrottle.log(
                .notice, "buzzer device back", key: "back \(identity)", metadata: ["device": "\(path)"], to: logger)
            await notify(.deviceBack(identity: identity, devicePath: path))
        case .pressed(let presses):
            await handle(presses: presses)
        }
    }

    private func handle(presses: [ButtonPress]) async {
        var presses = presses
        var assignments = readAssignments()
        if let current = join {
            // A button claimed in this joining is its team's now: pressed again while a question is open it
            // buzzes, so a team that joined can play while the joining still waits for another (a host who left
            // `shaky buzzers join` with Ctrl-C and opened a question), instead of the press going unheard. Before
            // a question it stays ignored, as in any joining: players pressing again must not lock themselves out.
            // While a question is open, a button a team has from before buzzes for it too: the joining takes only
            // buttons no team has then, so a joining left waiting never hands a team's own button to another.
            // And only for a team asked that has no button at all (a stray press must not take a working one from
            // it), never a key of a keyboard left to the host, who types on it during play: such a press is told
            // as any press on a button no team has.
            let claimed = Set(current.claimed.map(\.button))
            let isOpen = await isQuestionOpen()
            let askedHasAButton =
                current.asking.map { asking in
                    assignments?.values.contains { TeamNameKey.of($0) == TeamNameKey.of(asking) } ?? false
                } ?? false
            var buzzing: [ButtonPress] = []
            for press in presses {
                let joinsDuringPlay = assignments?[press.button] == nil && !askedHasAButton && !isTyping(press)
                if claimed.contains(press.button) || (isOpen && !joinsDuringPlay) {
                    buzzing.append(press)
                } else {
                    await claim(press)
                }
            }
            guard !buzzing.isEmpty else { return }
            guard isOpen else {
                // Said, so that the team asked, pressing a button another team took, presses another.
                for press in buzzing { await tellTaken(press) }
                return
            }
            presses = buzzing
            // The claims above changed the assignments.
            assignments = readAssignments()
        }
        guard let assignments else { return }
        for press in presses where assignments[press.button] == nil && !isTyping(press) {
            await tellUnheard(.unassignedPress(press), about: press)
        }
        let owned = presses.compactMap { press in assignments[press.button].map { (press, $0) } }
        guard !owned.isEmpty else { return }
        let outcomes = await runtime.buttonPresses(
            owned.map { (team: $0.1, age: $0.0.age, kernelTime: $0.0.kernelTime) })
        let now = await runtime.clockReading()
        for ((press, team), outcome) in zip(owned, outcomes) {
            logger.debug(
                "button press",
                metadata: [
                    "team": "\(team)", "key": "\(press.keyName)", "kernelTime": "\(press.kernelTime)",
                    "age": "\(press.age)", "outcome": "\(outcome)",
                ])
            // A refused press (the team buzzed already) is told at most once per button every
            // ``pressFeedbackInterval``, as a press that did nothing is: a button hammered on floods no screen.
            if case .refused = outcome, pressFeedback.admit("\(press.button) refused", at: press.kernelTime) == nil {
                continue
            }
            // From the press, as the kernel stamped it, not from its handling a reorder window later.
            let lockedFor: Duration? =
                if case .lockedOut(let until) = outcome { max(.zero, until - (now - press.age)) } else { nil }
            await notify(
                .pressed(
                    team: team, keyName: press.keyName, kernelTime: press.kernelTime, outcome: outcome,
                    lockedFor: lockedFor))
        }
    }

    /// Every button's team, or `nil` (logged) when the store cannot say.
    private func readAssignments() -> [ButtonID: String]? {
        do {
            return Dictionary(
                try database.buzzerAssignments().map { (ButtonID(device: $0.device, key: $0.keyCode), $0.team) },
                uniquingKeysWith: { first, _ in first })
        } catch {
            logThrottle.log(
                .error, "cannot read the buzzer assignments", metadata: ["error": "\(error)"], to: logger)
            return nil
        }
    }

    /// Whether a question is in play (buzzers open, or a team answering).
    private func isQuestionOpen() async -> Bool {
        switch try? await runtime.status().phase {
        case .indication?, .answering?: true
        case .ready?, .roundOver?, .gameOver?, nil: false
        }
    }

    private func claim(_ press: ButtonPress) async {
        guard var current = join else { return }
        guard let team = current.press(press.button) else {
            // Taken earlier in the same batch of presses.
            await tellTaken(press)
            return
        }
        do {
            try database.assignBuzzer(
                BuzzerAssignment(
                    device: press.button.device, keyCode: press.button.key, keyName: press.keyName, team: team),
                replacingTeamButtons: true)
        } catch {
            logThrottle.log(.error, "cannot save a buzzer assignment", metadata: ["error": "\(error)"], to: logger)
            return
        }
        join = current.isComplete ? nil : current
        await notify(
            .joined(team: team, device: press.button.device, keyName: press.keyName, devicePath: press.devicePath))
        if let asking = current.asking { await notify(.joinAsking(team: asking)) }
        light(team: team, slot: nil, for: [press.button])
    }

    /// Whether `press` is a key of a keyboard left to the host (not grabbed): a key no team has is then typing, in
    /// a terminal or a desktop, and telling the room of every one would fill the board with notices.
    private func isTyping(_ press: ButtonPress) -> Bool {
        !grabsKeyboards && devices[press.button.device]?.candidate.kind == .keyboard
    }

    /// Tells the watchers that `press`, on a button another team took in this joining, did nothing.
    private func tellTaken(_ press: ButtonPress) async {
        guard let current = join, let owner = current.team(of: press.button), let asking = current.asking else {
            return
        }
        await tellUnheard(.takenPress(press, owner: owner, asking: asking), about: press)
    }

    /// Tells the watchers `notice` of a press that did nothing, unless the last such notice of its button is under
    /// ``pressFeedbackInterval`` old by the kernel's clock.
    private func tellUnheard(_ notice: BuzzerNotice, about press: ButtonPress) async {
        guard pressFeedback.admit("\(press.button)", at: press.kernelTime) != nil else { return }
        logger.debug(
            "button press did nothing",
            metadata: ["device": "\(press.button.device)", "key": "\(press.keyName)", "notice": "\(notice)"])
        await notify(notice)
    }

    /// Follows the game: a buzzing team's lights go on; every light goes off when the round or game ends, and
    /// when a new game starts.
    public func follow(_ event: RuntimeEvent) async {
        if case .state(let status) = event { await endJoin(unlessPlaying: status?.teams.map(\.name) ?? []) }
        switch Self.lightChange(for: event) {
        case .light(let team)?:
            let buttons = (try? database.buzzerAssignments())?.filter {
                $0.teamKey == TeamNameKey.of(team)
            }.map { ButtonID(device: $0.device, key: $0.keyCode) }
            let slot = await runtime.teamNames().firstIndex {
                TeamNameKey.of($0) == TeamNameKey.of(team)
            }
            light(team: team, slot: slot, for: buttons ?? [])
        case .allOff?:
            allOff()
        case nil:
            break
        }
    }

    /// Ends a joining that waits for a team not among `teams` (a new game of other teams): while it lasts a press on
    /// a button it has not given out is taken as a join, so the new game's buttons would not buzz and would go to
    /// teams no longer playing.
    private func endJoin(unlessPlaying teams: [String]) async {
        guard let waiting = join?.waiting else { return }
        let playing = Set(teams.map(TeamNameKey.of))
        guard waiting.contains(where: { !playing.contains(TeamNameKey.of($0)) }) else { return }
        logger.notice(
            "joining stopped: the new game's teams are others; `shaky buzzers join` asks them",
            metadata: ["waiting": "\(waiting)"])
        await endJoin(.otherTeams)
    }

    /// Ends the joining under way, if a team is still asked, and tells the watchers why: the board and `shaky play`
    /// would otherwise keep asking a team to press.
    private func endJoin(_ reason: BuzzerNotice.JoinEnd) async {
        guard let asking = join?.asking else { return }
        join = nil
        await notify(.joinEnded(team: asking, reason: reason))
    }

    /// What an event does to the lights.
    public enum LightChange: Sendable, Equatable {
        /// A team buzzed: its lights go on.
        case light(team: String)
        /// A new game, or the round or game ended: every light goes off.
        case allOff
    }

    /// What ``follow(_:)`` does for `event`; `nil` for most events (a countdown's tick, a hint), which need not be
    /// handed to the service at all.
    public nonisolated static func lightChange(for event: RuntimeEvent) -> LightChange? {
        switch event {
        case .state:
            return .allOff
        case .sensor, .buzzer, .shakeHint, .countdown, .paused:
            return nil
        case .action(let action):
            switch action {
            case .buzzed(let team, _, _, _):
                return .light(team: team)
            case .answerRevealed, .gameOver, .roundStarted:
                return .allOff
            default:
                return nil
            }
        }
    }

    /// Turns every light this service lit off.
    public func allOff() {
        for light in lit { leds.turnOff(light) }
        lit.removeAll()
    }

    private func light(team: String, slot: Int?, for buttons: [ButtonID]) {
        var lights = buttons.compactMap { button in
            devices[button.device].flatMap { $0.isPresent ? $0.candidate.light(for: button.key) : nil }
        }
        if let slot { lights += teamLights.filter { $0.slot == slot + 1 } }
        let colour = Self.colour(slot: slot ?? 0)
        for light in lights {
            if let error = leds.turnOn(light, colour: colour) {
                logger.debug("cannot light a buzzer", metadata: ["error": "\(error)"])
            } else {
                lit.insert(light)
            }
        }
    }

    /// The team colours for multicolour lights, by seat: red, blue, green, yellow, magenta, cyan, orange, white.
    static func colour(slot: Int) -> (red: Int, green: Int, blue: Int) {
        let palette = [
            (255, 0, 0), (0, 64, 255), (0, 200, 0), (255, 200, 0), (255, 0, 255), (0, 220, 220), (255, 100, 0),
            (255, 255, 255),
        ]
        return palette[((slot % palette.count) + palette.count) % palette.count]
    }
}

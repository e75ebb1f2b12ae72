import Logging
import ShakyCore
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import Synchronization
import TriviaEngine
import Varlink

/// Serves `io.shakywords.Buzzers` from the ``BuzzerService`` and the database's assignments.
struct BuzzersService: ShakyAPI.BuzzersInterface.Implementation {
    let buzzers: BuzzerService
    let database: AppDatabase
    let logger: Logger
    /// A crowd of watchers that stop reading (a client's bug, or a flood) is logged at most once a minute.
    let departures = SharedLogThrottle()
    /// Each notice's reply, encoded once for all the watchers it is told to.
    let encodedNotices = EncodedBuzzerNotices()

    func list() async throws -> ShakyAPI.BuzzersInterface.ListReply {
        let devices = await buzzers.knownDevices().map { device in
            ShakyAPI.BuzzerDevice(
                path: device.candidate.devicePath, name: device.candidate.name, identity: device.candidate.identity,
                kind: device.candidate.kind?.rawValue ?? "buttons", keys: device.candidate.keys.map(BuzzerKeys.name),
                lights: device.candidate.lights.map(\.name), present: device.isPresent)
        }
        let assignments = try await Self.storeCall { try database.buzzerAssignments() }.map(
            ShakyAPI.ButtonAssignment.init)
        return ShakyAPI.BuzzersInterface.ListReply(
            devices: devices, assignments: assignments, joining: await buzzers.joining()?.waiting ?? [],
            reading: buzzers.readsDevices)
    }

    func join(teams: [String]?) async throws -> [String] {
        // Refused rather than started when no press can come, or none could be saved (a name with nothing in it):
        // the host's `shaky buzzers join` and the board's "press your button" would wait for ever.
        if let teams, teams.contains(where: { TeamNameKey.of($0).isEmpty }) {
            throw ShakyAPI.BuzzersInterface.ReplyError.invalidAssignment(message: "a team name is empty")
        }
        let names = await buzzers.teamsToAsk(teams)
        guard !names.isEmpty else { throw ShakyAPI.BuzzersInterface.ReplyError.noTeams }
        guard await buzzers.knownDevices().contains(where: \.isPresent) else {
            throw buzzers.readsDevices
                ? ShakyAPI.BuzzersInterface.ReplyError.noBuzzerDevices
                : ShakyAPI.BuzzersInterface.ReplyError.buzzersNotRead
        }
        return await buzzers.startJoin(teams: names)
    }

    /// The longest device identity and key `Assign` takes, in code points: far beyond any udev path, serial or key
    /// name (`BTN_TRIGGER_HAPPY40`), while a device not seen yet is stored and listed as given.
    static let longestDeviceName = 256
    static let longestKeyName = 64

    func assign(team: String, device: String, key: String) async throws -> ShakyAPI.ButtonAssignment {
        guard device.unicodeScalars.count <= Self.longestDeviceName else {
            throw VarlinkReplyError.invalidParameter("device")
        }
        guard key.unicodeScalars.count <= Self.longestKeyName else { throw VarlinkReplyError.invalidParameter("key") }
        // A Bluetooth address as `bluetoothctl` prints it (upper case) names the identity discovery makes of it.
        let named = device.lowercased().hasPrefix("bluetooth:") ? device.lowercased() : device
        let known = await buzzers.device(named: named)
        let identity = known?.candidate.identity ?? named
        // A device not seen yet may be named by its identity (`pci-…-usb-0:2:1.0`, `bluetooth:a4:ae:…`, a serial,
        // `name:…`), so its buttons can be set up before it is plugged in (`shaky` says when no device of that
        // identity was seen); a node that is not there is a mistake.
        guard known != nil || !named.hasPrefix("/") && (!named.hasPrefix("bluetooth:") || Self.isAddress(named)) else {
            throw ShakyAPI.BuzzersInterface.ReplyError.unknownDevice(device: device)
        }
        guard let code = BuzzerKeys.code(key), known.map({ $0.candidate.keys.contains(code) }) ?? true else {
            throw ShakyAPI.BuzzersInterface.ReplyError.unknownKey(key: key)
        }
        let assignment = BuzzerAssignment(device: identity, keyCode: code, keyName: BuzzerKeys.name(code), team: team)
        try await Self.storeCall { try database.assignBuzzer(assignment) }
        return ShakyAPI.ButtonAssignment(assignment)
    }

    /// Whether `identity` is `bluetooth:` and an address of six hexadecimal pairs (`bluetooth:a4:ae:12:00:00:09`): a
    /// typo in one would be a button that can never press.
    static func isAddress(_ identity: String) -> Bool {
        let pairs = identity.dropFirst("bluetooth:".count).split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 6 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    func clear(team: String?) async throws -> Int {
        if let team, TeamNameKey.of(team).isEmpty {
            throw ShakyAPI.BuzzersInterface.ReplyError.invalidAssignment(message: "the team name is empty")
        }
        do {
            return try await buzzers.clear(team: team)
        } catch {
            throw ShakyAPI.BuzzersInterface.ReplyError.invalidAssignment(message: "\(error)")
        }
    }

    func watch() async throws -> AsyncThrowingStream<VarlinkStreamReply, any Error> {
        let request = VarlinkRequest.current
        let hangUp: @Sendable () -> Void = { request?.hangUp() }
        let (stream, continuation) = AsyncThrowingStream<VarlinkStreamReply, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(ShakyService.watcherQueueLimit))
        let id = await buzzers.addWatcher { [encodedNotices] notice in
            guard let reply = encodedNotices.reply(for: notice) else { return true }
            switch continuation.yield(reply) {
            case .enqueued:
                return true
            case .dropped:
                departures.log(.notice, "dropped a buzzers watcher that stopped reading", to: logger)
                continuation.finish(throwing: VarlinkBroadcast.Overflow(backlogLimit: ShakyService.watcherQueueLimit))
                hangUp()
                return false
            case .terminated:
                return false
            @unknown default:
                return false
            }
        }
        continuation.onTermination = { [buzzers] _ in
            Task { await buzzers.removeWatcher(id) }
        }
        return stream
    }

    /// Runs a store call off the event loop (``BlockingWork``); a refusal or failure becomes `InvalidAssignment` with
    /// the store's message.
    static func storeCall<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws(ShakyAPI.BuzzersInterface.ReplyError) -> T {
        try await BlockingWork.run(body) { ShakyAPI.BuzzersInterface.ReplyError.invalidAssignment(message: "\($0)") }
    }
}

extension ShakyAPI.ButtonAssignment {
    init(_ assignment: BuzzerAssignment) {
        self.init(
            team: assignment.team, device: assignment.device, key: assignment.keyCode, keyName: assignment.keyName)
    }
}

extension ShakyAPI.BuzzerEvent {
    init(_ notice: BuzzerNotice) {
        switch notice {
        case .joinAsking(let team):
            self.init(kind: .joinAsking, team: team)
        case .joined(let team, let device, let keyName, let devicePath):
            self.init(kind: .joined, team: team, keyName: keyName, device: device, path: devicePath)
        case .joinEnded(let team, .otherTeams):
            self.init(
                kind: .joinEnded, team: team,
                message: "the new game's teams are others; `shaky buzzers join` asks them")
        case .joinEnded(let team, .replaced):
            self.init(kind: .joinEnded, team: team, message: "another joining began")
        case .unassignedPress(let press):
            let device = press.button.device
            self.init(
                kind: .pressed, keyName: press.keyName, device: device, path: press.devicePath,
                kernelTime: press.kernelTime.seconds, outcome: "unassigned",
                message: "no team has \(press.keyName) on \(device): `shaky buzzers join` lets the team asked take "
                    + "it, or `shaky buzzers assign TEAM \(ShellWord.quoted(device)) \(press.keyName)` gives it to TEAM"
            )
        case .takenPress(let press, let owner, let asking):
            self.init(
                kind: .pressed, team: owner, keyName: press.keyName, kernelTime: press.kernelTime.seconds,
                outcome: "taken", message: "that button is \(owner.possessive) — \(asking): press another button",
                asking: asking)
        case .pressed(let team, let keyName, let kernelTime, let outcome, let lockedFor):
            self.init(kind: .pressed, team: team, keyName: keyName, kernelTime: kernelTime.seconds)
            switch outcome {
            case .buzzed(let order):
                self.outcome = "buzzed"
                self.order = order
            case .early:
                self.outcome = "early"
            case .lockedOut:
                self.outcome = "lockedOut"
                self.lockedFor = lockedFor?.seconds
            case .refused(.unknownTeam(let name)):
                // Buttons are kept across games: one a team of an earlier game took is pressed in vain until it
                // is given to a team of this one.
                self.outcome = "refused"
                self.message =
                    "\(GameError.unknownTeam(name)): the button is kept for \(name) from an earlier game; "
                    + "`shaky buzzers join` or `shaky buzzers assign TEAM DEVICE KEY` gives it to a team playing"
            case .refused(let error):
                self.outcome = "refused"
                self.message = "\(error)"
            }
        case .deviceGone(let identity, let path):
            self.init(kind: .deviceGone, device: identity, path: path)
        case .deviceBack(let identity, let path):
            self.init(kind: .deviceBack, device: identity, path: path)
        case .cleared(let team, let count):
            self.init(kind: .cleared, team: team, cleared: count)
        }
    }
}

extension ShakyAPI.ButtonEvent {
    /// The notice as `Game.Watch` reports it: the same fields as `Buzzers.Watch`.
    init(_ notice: BuzzerNotice) {
        let event = ShakyAPI.BuzzerEvent(notice)
        self.init(
            kind: event.kind, team: event.team, keyName: event.keyName, device: event.device, path: event.path,
            kernelTime: event.kernelTime, outcome: event.outcome, order: event.order, lockedFor: event.lockedFor,
            message: event.message, cleared: event.cleared, asking: event.asking)
    }
}

/// The `Watch` reply of the last buzzer notice: ``BuzzerService`` tells a notice to its watchers one after another,
/// so the first encodes it and the others take the same bytes, as `Game.Watch`'s fan-out (``WatcherHub``) does: a
/// party may have a board, a host and a few phones watching, and encoding is most of what each watcher costs.
final class EncodedBuzzerNotices: Sendable {
    private let last = Mutex<(notice: BuzzerNotice, reply: VarlinkStreamReply)?>(nil)
    private let encodings = Atomic(0)

    /// How many notices were encoded so far.
    var encodingCount: Int { encodings.load(ordering: .relaxed) }

    /// `notice`'s reply to a watcher, or `nil` if it cannot be encoded (a bug: the watcher then hears nothing of it).
    func reply(for notice: BuzzerNotice) -> VarlinkStreamReply? {
        if let cached = last.withLock({ $0 }), cached.notice == notice { return cached.reply }
        guard
            let reply = try? ShakyAPI.BuzzersInterface.WatchReply(event: ShakyAPI.BuzzerEvent(notice))
                .streamReply(continues: true)
        else { return nil }
        encodings.add(1, ordering: .relaxed)
        last.withLock { $0 = (notice, reply) }
        return reply
    }
}

import Foundation
import Logging
import ServiceLifecycle
import ShakeDetection
import ShakyCore
import ShakyDrivers
import ShakyProtocol
import ShakyStore
import Synchronization
import SystemCalls
import Varlink

/// The running daemon: the database, the runtime, the sensor pipeline, sound and the Varlink server, started in
/// that order and stopped in reverse on SIGTERM, SIGINT or SIGHUP.
///
/// `shakyd` only parses its flags and calls ``run(configuration:logger:)``; tests call
/// ``start(configuration:clock:accessPolicy:soundPlayer:logger:)`` with their own clock and drive the same daemon.
public final class Daemon: Sendable {
    /// The game's inbox.
    public let runtime: GameRuntime
    /// The `Watch` callers, fed by the runtime's events.
    public let watchers: WatcherHub
    /// The database.
    public let database: AppDatabase
    /// The Varlink service (in-process calls use it directly).
    public let service: VarlinkService
    /// The live settings.
    public let settings: PreferencesController
    /// The sensor side.
    public let sensor: SensorPipeline
    /// What the daemon runs with.
    public let configuration: DaemonConfiguration
    /// The buzzers: press to join, assignments, lights.
    public let buzzers: BuzzerService
    private let buzzerReading: BuzzerReading?
    private let sound: any SoundPlayer
    private let stateLock: StateDirectoryLock
    /// Set by the first ``shutDown()``: the database is closed then, so a second one does nothing.
    private let isShutDown = Atomic(false)
    private let logger: Logger

    private init(
        configuration: DaemonConfiguration, runtime: GameRuntime, watchers: WatcherHub, database: AppDatabase,
        service: VarlinkService, settings: PreferencesController, sensor: SensorPipeline, sound: any SoundPlayer,
        stateLock: StateDirectoryLock, logger: Logger, buzzers: BuzzerService, buzzerReading: BuzzerReading?
    ) {
        self.stateLock = stateLock
        self.buzzers = buzzers
        self.buzzerReading = buzzerReading
        self.configuration = configuration
        self.runtime = runtime
        self.watchers = watchers
        self.database = database
        self.service = service
        self.settings = settings
        self.sensor = sensor
        self.sound = sound
        self.logger = logger
    }

    /// Opens everything but the socket: the database (restoring a saved game, paused), sound, the sensor.
    ///
    /// - Parameter soundPlayer: plays the cues instead of the one `configuration.soundDevice` names (tests pass a
    ///   recording fake); the saved sound settings are applied to it all the same.
    public static func start(
        configuration: DaemonConfiguration, clock: any Clock<Duration> = ContinuousClock(),
        accessPolicy: (any VarlinkAccessPolicy)? = nil, soundPlayer: (any SoundPlayer)? = nil, logger: Logger
    ) async throws -> Daemon {
        let spec = try inputSpec(configuration.input, setIn: configuration.inputPlace)
        let earlyPressLockout = try configuration.earlyPressLockout()
        let readsBuzzers = try configuration.readsBuzzers()
        let reorderWindow = try configuration.reorderWindow()
        let readsShakers = try configuration.readsShakers()
        // Released when the daemon shuts down, or when this start fails (the lock's deinit).
        let stateLock = try StateDirectoryLock(directory: configuration.stateDirectory)
        // On a full disk (or a read-only file system) the saved game is still served, read-only, until saving works;
        // a damaged file is set aside for a new one.
        let opened = try openDatabase(path: configuration.databasePath, logger: logger)
        let database = opened.database
        if let reason = database.readOnlyReason {
            logger.error(
                "serving the saved game read-only: changes are refused until the database can be written again",
                metadata: ["reason": "\(reason)"])
        }
        var preferences = try database.preferences()
        if !preferences.sensitivityChosen, ShakeSensitivity(rawValue: configuration.sensitivity) != nil {
            // `--sensitivity` (or the file's `sensitivity:`) sets the preset until one is chosen over the socket;
            // not saved, so that the next start's setting (or none, the default) applies in turn.
            preferences.sensitivity = configuration.sensitivity
        } else if configuration.sensitivityGiven, configuration.sensitivity != preferences.sensitivity {
            // A preset chosen over the socket (`shaky settings`) is kept over the one given here: said, so a host
            // who typed `--sensitivity` knows why it did nothing.
            logger.notice(
                """
                the sensitivity given at start is not used: the one chosen over the socket is kept; \
                `shaky settings --sensitivity \(configuration.sensitivity)` changes it
                """,
                metadata: ["given": "\(configuration.sensitivity)", "kept": "\(preferences.sensitivity)"])
        }
        let sound =
            soundPlayer ?? makeSoundPlayer(configuration: configuration, preferences: preferences, logger: logger)
        let runtime = GameRuntime(
            database: database, clock: RuntimeClock(clock), sound: sound, logger: logger)
        try await runtime.restore()
        let initialSensitivity = ShakeSensitivity(rawValue: preferences.sensitivity) ?? .medium
        var controllers: (@Sendable (Set<String>) -> [MotionController])?
        if readsShakers {
            controllers = { @Sendable board in MotionControllerDiscovery().discover(excluding: board) }
        }
        let sensor = SensorPipeline(
            spec: spec, inputPlace: configuration.inputPlace,
            options: AccelerometerOptions(rate: 100, clock: clock, descriptions: configuration.accelerometers),
            runtime: runtime,
            sensitivity: initialSensitivity, logger: logger, calibrations: SensorCalibrations(database: database),
            clock: clock,
            controllers: controllers)
        let settings = try PreferencesController(
            database: database, sound: sound, sharingExecutorWith: runtime, preferences: preferences
        ) { sensitivity in
            Task { await sensor.setSensitivity(sensitivity) }
        }
        let buzzers = BuzzerService(
            runtime: runtime, database: database, teamLights: EvdevBuzzerDiscovery().teamLights(),
            readsDevices: readsBuzzers, grabsKeyboards: configuration.grabKeyboards, logger: logger)
        let watchers = WatcherHub(logger: logger)
        // One observer: watchers hear each event at once; the buzzer lights follow the events that change them, in
        // order (the others, a countdown's tick each second above all, would only wake the lights' task).
        let (gameEvents, gameEventSink) = AsyncStream.makeStream(of: RuntimeEvent.self)
        await runtime.setEventObserver { event in
            watchers.publish(event)
            if BuzzerService.lightChange(for: event) != nil { gameEventSink.yield(event) }
        }
        await watchers.tellTickListeners(to: runtime)
        let service = try ShakyService.make(
            runtime: runtime, watchers: watchers, database: database, settings: settings,
            accessPolicy: accessPolicy
                ?? ControlGroupAccessPolicy.forCurrentProcess(
                    controlGroupName: "shaky", openMethods: ShakyService.openMethods),
            logger: logger, sensor: sensor, buzzers: buzzers, damagedDatabase: opened.damagedFile?.path)
        await runtime.setSensorDemandHandler(sensor.demandHandler())
        await sensor.start()
        await runtime.setDefaultEarlyPressLockout(earlyPressLockout)
        let buzzerReading = await BuzzerReading.start(
            enabled: readsBuzzers, grabKeyboards: configuration.grabKeyboards, reorderWindow: reorderWindow,
            gameEvents: gameEvents, service: buzzers, logger: logger)
        sound.play(.startup)
        return Daemon(
            configuration: configuration, runtime: runtime, watchers: watchers, database: database, service: service,
            settings: settings, sensor: sensor, sound: sound, stateLock: stateLock, logger: logger, buzzers: buzzers,
            buzzerReading: buzzerReading)
    }

    /// Runs the daemon until SIGTERM, SIGINT or SIGHUP: serves the socket (or the one systemd passed), tells systemd
    /// it is ready once the socket serves, pings the watchdog from the runtime's inbox, and saves on the way out.
    public static func run(configuration: DaemonConfiguration, logger: Logger) async throws {
        let notifier = SystemdNotifier()
        // Sleeps scheduled on the event loop, which runs the tasks too (`ProcessSetup` in `shakyd`): libdispatch
        // never starts, and a daemon with nothing to do never wakes.
        let clock = EventLoopClock()
        // Where to listen, checked before anything starts: a daemon that cannot serve (another one listening there,
        // a file in the way, a path too long) leaves no state folder or database behind.
        let address: VarlinkServer.Address
        let inherited = try SystemdSocketActivation.listeningDescriptors(
            environment: ProcessInfo.processInfo.environment, processID: getpid())
        if let descriptor = inherited.first {
            address = .inheritedSocket(descriptor)
        } else {
            if let directory = configuration.privateSocketDirectory {
                try PrivateSocketDirectory.create(directory)
            }
            try VarlinkServer.prepareToListen(at: configuration.socketPath)
            address = .unixSocket(path: configuration.socketPath)
        }
        let daemon = try await start(configuration: configuration, clock: clock, logger: logger)
        let server: VarlinkServer
        do {
            if case .inheritedSocket = address { logger.info("serving the socket systemd passed") }
            server = try await VarlinkServer.bind(
                to: address, service: daemon.service, socketGroup: "shaky",
                replyBacklog: VarlinkReplyBacklog(largeReplySent: Self.releaseFreeMemoryOffTheEventLoop),
                logger: logger)
        } catch {
            // Nothing was served: stop what started (the saved game stays as it was, the database is closed
            // cleanly) before saying why.
            await daemon.shutDown()
            throw error
        }
        logger.info(
            "ready", metadata: ["socket": "\(configuration.socketPath)", "database": "\(configuration.databasePath)"])
        await daemon.runtime.setStatusLineHandler { notifier.status($0) }
        if let failure = notifier.ready() {
            logger.error(
                "systemd was not told that shakyd is ready; it will stop shakyd when the unit's start time runs out",
                metadata: ["problem": "\(failure)"])
        }
        // Stopped in reverse order: systemd hears STOPPING=1 at once; the server stops accepting and lets the calls
        // running reply (for up to `VarlinkServer.defaultDrainTimeout`); then the game is saved and the database
        // closed, which those calls may still have needed.
        let services: [any Service] = [
            DaemonService(daemon: daemon),
            ServerService(server: server),
            WatchdogService(runtime: daemon.runtime, notifier: notifier, clock: clock),
            StoppingNoticeService(notifier: notifier),
        ]
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { .init(service: $0) },
                // SIGHUP too: a daemon started in a terminal that closes (an SSH session to the Pi) saves and stops
                // as on SIGTERM, instead of being killed by the signal's default action.
                gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
                logger: logger))
        try await group.run()
    }

    /// Stops timers, the sensor and sound, after saving the game as it stands, and closes the database; once.
    public func shutDown() async {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let saved = await runtime.shutDown()
        await sensor.stop()
        await buzzerReading?.stop()
        (sound as? ALSASoundPlayer)?.shutdown()
        switch saved {
        case true?: logger.info("stopped; the game is saved")
        case false?: logger.error("stopped; the game could not be saved, so it will come back as it was last saved")
        case nil: logger.info("stopped; there is no game to save")
        }
        // Closed here, not whenever the last reference goes: the process may end first, which leaves the
        // write-ahead log beside the file (nothing is lost, but a restart on a full disk then finds room in it).
        do {
            try database.close()
        } catch {
            logger.error("cannot close the database", metadata: ["error": "\(error)"])
        }
        stateLock.release()
    }

    /// Gives malloc's free memory back to the kernel on the blocking pool, after a large reply (a pack's export) was
    /// sent: the blocks its making freed stay in the heap otherwise (one export of 100 000 questions left the daemon
    /// 40 MiB larger), and trimming walks every heap, which the event loop should not wait for.
    @Sendable static func releaseFreeMemoryOffTheEventLoop() {
        Task { try? await BlockingWork.run { MallocTuning.releaseFreeMemory() } }
    }

    /// The file `--input demo` replays: a device lying still, shaken every six seconds.
    public static let demoTraceName = "demo-shakes.csv"

    /// The input to open: `none` gives no sensor; `demo` loops the bundled demo trace at real speed. A refusal names
    /// the input as the host gave it: `--input X`, or the configuration file's `place` and `input X` when the file set
    /// it (`place` `nil`: a flag or the default).
    static func inputSpec(_ text: String, setIn place: ConfigurationFilePlace? = nil) throws -> InputSpec? {
        let given = place.map { "\($0): input \(text)" } ?? "--input \(text)"
        switch text {
        case "none":
            return nil
        case "demo":
            let places = InstallLayout.directories(for: .demoTraces).map { $0.appendingPathComponent(demoTraceName) }
            guard let trace = places.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) else {
                let searched = InstallLayout.places(for: .demoTraces).map(\.path).spokenList("and")
                throw DaemonStartError(
                    problem: "\(given): the demo trace \(demoTraceName) is not installed (looked in \(searched)); "
                        + "install Shaky Words with `make install`, or set SHAKY_DATA_DIR to the folder that holds "
                        + "its traces/ folder")
            }
            return .trace(path: trace.path, speed: .realTime, loop: true)
        default:
            let spec: InputSpec
            do {
                spec = try InputSpec(parsing: text)
            } catch {
                throw DaemonStartError(problem: "\(error)")
            }
            // A trace is a file the host named, and nothing plugs it in later: one that cannot be read is a mistake
            // to say now, not a daemon that starts with manual hints.
            if case .trace(let path, _, _) = spec {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                guard descriptor >= 0 else {
                    throw DaemonStartError(
                        problem: "\(given): \(FileAccessError(path: path, errno: errno).description)")
                }
                defer { close(descriptor) }
                // A folder opens for reading too; only its first read would fail, and the daemon would start without
                // a sensor.
                var status = stat()
                if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                    throw DaemonStartError(
                        problem: "\(given): \(FileAccessError(path: path, errno: EISDIR).description)")
                }
            }
            return spec
        }
    }

    private static func makeSoundPlayer(
        configuration: DaemonConfiguration, preferences: DaemonPreferences, logger: Logger
    ) -> any SoundPlayer {
        let settings = SoundLevel(enabled: preferences.soundEnabled, volume: preferences.volume)
        guard configuration.soundDevice != "none" else {
            let silent = SilentSoundPlayer()
            silent.apply(settings)
            return silent
        }
        let bank = SoundBank.load(
            overrides: configuration.soundsDirectory.map(URL.init(fileURLWithPath:)), logger: logger)
        return ALSASoundPlayer(
            bank: bank, configuration: .init(device: configuration.soundDevice), settings: settings, logger: logger)
    }
}

/// The daemon could not start; `problem` says why and what to change.
public struct DaemonStartError: Error, CustomStringConvertible {
    /// What is wrong.
    public var problem: String
    public var description: String { problem }
}

/// Keeps the daemon up until shutdown is asked, then stops it (saving the game); the last service stopped.
struct DaemonService: Service {
    let daemon: Daemon

    func run() async throws {
        try? await gracefulShutdown()
        await daemon.shutDown()
    }
}

/// Serves the Varlink socket until shutdown, then drains it (``VarlinkServer/shutDownGracefully()``): new clients are
/// refused, and the calls running reply before their connections close.
struct ServerService: Service {
    let server: VarlinkServer

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.run()
        } onGracefulShutdown: {
            server.shutDownGracefully()
        }
    }
}

/// Tells systemd the daemon is stopping (`STOPPING=1`) as soon as shutdown begins: the first service stopped, so
/// systemd knows before the calls running have replied and the game is saved.
struct StoppingNoticeService: Service {
    let notifier: SystemdNotifier

    func run() async throws {
        try? await gracefulShutdown()
        notifier.stopping()
    }
}

/// Pings systemd's watchdog from the runtime's own inbox, so a stuck game loop gets the daemon restarted.
struct WatchdogService: Service {
    let runtime: GameRuntime
    let notifier: SystemdNotifier
    let clock: EventLoopClock

    func run() async throws {
        guard let interval = notifier.watchdogInterval() else {
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if await runtime.ping() { notifier.watchdog() }
                // Shutdown cancels the sleep: that ends the loop, it is not a failure of the service.
                try? await clock.sleep(for: interval)
            }
        }
    }
}

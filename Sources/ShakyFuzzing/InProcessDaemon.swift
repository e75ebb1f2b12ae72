import Foundation
import Logging
import ShakyCore
import ShakyDaemon
import ShakyDrivers
import ShakyStore
import ShakyTesting
import Varlink

/// The daemon's Varlink service composed as `Daemon.start` composes it (the game runtime, settings, sensor,
/// buzzers, watchers, every interface from `ShakyService.make`), over a database in memory, with no sensor, no
/// sound device, no devices to scan and small built-in packs.
///
/// Calls take the path a socket's calls take from the parsed frame on: validation against the interfaces, each
/// method's parameter decoding, the engine and the store. Only the file under the store differs: a database in
/// memory saves without touching a disk, so a fuzzer measures the parsers and the engine rather than `fsync`.
final class InProcessDaemon: Sendable {
    /// The service a socket's calls are handed to.
    let service: VarlinkService
    private let runtime: GameRuntime

    private init(service: VarlinkService, runtime: GameRuntime) {
        self.service = service
        self.runtime = runtime
    }

    /// The built-in packs it installs: two small ones (`Tests/Fuzz/Packs`), so that `New` has questions to play
    /// but does not spend each call decoding the two hundred questions that ship.
    static let builtinPacks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fuzz/Packs")

    /// Composes the daemon.
    static func start() async throws -> InProcessDaemon {
        let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
        let clock = ManualClock()
        let database = try AppDatabase.inMemory(builtinPacks: .directory(builtinPacks))
        let sound = SilentSoundPlayer()
        let runtime = GameRuntime(database: database, clock: RuntimeClock(clock), sound: sound, logger: logger)
        try await runtime.restore()
        let sensor = SensorPipeline(
            spec: nil, options: AccelerometerOptions(rate: 100, clock: clock), runtime: runtime, sensitivity: .medium,
            logger: logger, calibrations: SensorCalibrations(database: database), clock: clock,
            returns: { _ in AsyncStream { $0.finish() } }, appearances: { AsyncStream { $0.finish() } })
        let settings = try PreferencesController(
            database: database, sound: sound, sharingExecutorWith: runtime
        ) { sensitivity in
            Task { await sensor.setSensitivity(sensitivity) }
        }
        let buzzers = BuzzerService(runtime: runtime, database: database, logger: logger)
        let watchers = WatcherHub(logger: logger)
        await runtime.setEventObserver { event in watchers.publish(event) }
        await watchers.tellTickListeners(to: runtime)
        let service = try ShakyService.make(
            runtime: runtime, watchers: watchers, database: database, settings: settings,
            accessPolicy: AllowEveryoneAccessPolicy(), logger: logger, sensor: sensor, buzzers: buzzers)
        await runtime.setSensorDemandHandler(sensor.demandHandler())
        await sensor.start()
        return InProcessDaemon(service: service, runtime: runtime)
    }

    /// Stops the game's timers, so that nothing of this daemon runs once it is dropped.
    func shutDown() async {
        await runtime.shutDown()
    }
}

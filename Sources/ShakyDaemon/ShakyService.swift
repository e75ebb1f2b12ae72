import Logging
import ShakyCore
import ShakyProtocol
import ShakyStore
import Varlink

/// Shaky Words over Varlink: the generated interfaces, each served by a type of this module that maps
/// the methods onto the runtime or the store (``GameService``, ``PacksService``, ``SensorService``,
/// ``SettingsService``, ``BuzzersService``).
///
/// The same ``VarlinkService`` answers a real socket and in-process calls (`service.handle(_:from:send:)`), so
/// tests run one body both ways.
public enum ShakyService {
    /// The product version reported by `org.varlink.service.GetInfo`.
    public static let version = ShakyVersion.current

    /// Methods any local user may call (`# @open` in the interface files); every other method needs root, the
    /// daemon's user or group `shaky`.
    public static let openMethods: Set<String> = ShakyAPI.GameInterface.openMethods
        .union(ShakyAPI.PacksInterface.openMethods)
        .union(ShakyAPI.SensorInterface.openMethods)
        .union(ShakyAPI.SettingsInterface.openMethods)
        .union(ShakyAPI.BuzzersInterface.openMethods)

    /// How many events a watcher may fall behind before it is disconnected.
    public static let watcherQueueLimit = 256

    /// Builds the service; `watchers` must hear `runtime`'s events; `sensor` calibrates the accelerometer (without
    /// it `Sensor.Calibrate` is refused); `buzzers` serves `io.shakywords.Buzzers` (a service without devices when
    /// not given).
    public static func make(
        runtime: GameRuntime, watchers: WatcherHub, database: AppDatabase, settings: SettingsController,
        accessPolicy: any VarlinkAccessPolicy, logger: Logger, sensor: SensorPipeline? = nil,
        buzzers: BuzzerService? = nil
    ) throws -> VarlinkService {
        let buzzers = buzzers ?? BuzzerService(runtime: runtime, database: database, logger: logger)
        return try VarlinkService(
            vendor: "Shaky Words", product: "shakyd", version: version, url: "https://shakywords.invalid/",
            interfaces: [
                ShakyAPI.GameInterface.varlinkInterface(
                    serving: GameService(runtime: runtime, database: database, watchers: watchers)),
                ShakyAPI.PacksInterface.varlinkInterface(serving: PacksService(database: database)),
                ShakyAPI.SensorInterface.varlinkInterface(serving: SensorService(runtime: runtime, sensor: sensor)),
                ShakyAPI.SettingsInterface.varlinkInterface(serving: SettingsService(settings: settings)),
                ShakyAPI.BuzzersInterface.varlinkInterface(
                    serving: BuzzersService(buzzers: buzzers, database: database)),
            ],
            accessPolicy: accessPolicy, logger: logger)
    }
}

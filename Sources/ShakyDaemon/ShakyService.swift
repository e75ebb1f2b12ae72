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
    /// not given); `damagedDatabase`, where a damaged database was set aside at start, is told in `Settings`.
    public static func make(
        runtime: GameRuntime, watchers: WatcherHub, database: AppDatabase, settings: PreferencesController,
        accessPolicy: any VarlinkAccessPolicy, logger: Logger, sensor: SensorPipeline? = nil,
        buzzers: BuzzerService? = nil, damagedDatabase: String? = nil
    ) throws -> VarlinkService {
        let buzzers = buzzers ?? BuzzerService(runtime: runtime, database: database, logger: logger)
        return try VarlinkService(
            vendor: "Shaky Words", product: "shakyd", version: version, url: "https://shakywords.invalid/",
            interfaces: [
                screened(
                    ShakyAPI.GameInterface.varlinkInterface(
                        serving: GameService(runtime: runtime, database: database, watchers: watchers))),
                screened(
                    ShakyAPI.PacksInterface.varlinkInterface(serving: PacksService(database: database)),
                    multiLine: multiLineParameters, unchecked: uncheckedParameters),
                ShakyAPI.SensorInterface.varlinkInterface(serving: SensorService(runtime: runtime, sensor: sensor)),
                ShakyAPI.SettingsInterface.varlinkInterface(
                    serving: SettingsService(settings: settings, damagedDatabase: damagedDatabase)),
                screened(
                    ShakyAPI.BuzzersInterface.varlinkInterface(
                        serving: BuzzersService(buzzers: buzzers, database: database, logger: logger))),
            ],
            accessPolicy: accessPolicy, logger: logger)
    }

    /// The parameters that may hold line feeds and tabs: a question's text.
    static let multiLineParameters: Set<String> = ["question.text"]
    /// The parameters checked elsewhere: a pack file to import, whose import names the line at fault.
    static let uncheckedParameters: Set<String> = ["data"]

    /// `interface`, each of its methods refusing with `InvalidParameter` (naming the parameter) a call whose
    /// strings hold a character ``TerminalText`` refuses, before the method runs: every string a client sends
    /// to the Game, Packs and Buzzers interfaces may end up on a terminal (team names, pack names, questions,
    /// answers, alternates, reasons, button devices).
    static func screened(
        _ interface: VarlinkInterface, multiLine: Set<String> = [], unchecked: Set<String> = []
    ) throws -> VarlinkInterface {
        let methods = interface.methods.mapValues { method in
            VarlinkMethod(requiresMore: method.requiresMore) { request in
                let parameters = JSONValue.object(request.parameters)
                if let path = parameters.firstUnsafeString(multiLine: multiLine, unchecked: unchecked) {
                    throw VarlinkReplyError.invalidParameter(path)
                }
                return try await method.handler(request)
            }
        }
        return try VarlinkInterface(description: interface.description, methods: methods)
    }
}

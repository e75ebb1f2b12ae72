import ShakyProtocol

/// Serves `io.shakywords.Sensor` from the runtime's view of the accelerometer.
struct SensorService: ShakyAPI.SensorInterface.Implementation {
    let runtime: GameRuntime

    func status() async throws -> ShakyAPI.SensorStatus { ShakyAPI.SensorStatus(await runtime.sensorReport()) }
}

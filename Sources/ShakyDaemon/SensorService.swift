import ShakyProtocol

/// Serves `io.shakywords.Sensor` from the runtime's view of the accelerometer and the sensor pipeline.
struct SensorService: ShakyAPI.SensorInterface.Implementation {
    let runtime: GameRuntime
    /// The pipeline that calibrates; `nil` in a service without one (calibrating is then refused).
    let sensor: SensorPipeline?

    /// Seconds of shaking and of holding still a calibration takes when the caller does not say.
    static let defaultCalibrationSeconds = (shake: 5.0, still: 4.0)

    func status() async throws -> ShakyAPI.SensorStatus { ShakyAPI.SensorStatus(await runtime.sensorReport()) }

    func calibrate(shakeSeconds: Double?, stillSeconds: Double?) async throws -> ShakyAPI.Calibration {
        guard let sensor else { throw ReplyError.calibrationFailed(message: "this daemon has no sensor pipeline") }
        do {
            let calibration = try await sensor.calibrate(
                shakingSeconds: shakeSeconds ?? Self.defaultCalibrationSeconds.shake,
                stillSeconds: stillSeconds ?? Self.defaultCalibrationSeconds.still
            ) { _ in }
            return ShakyAPI.Calibration(
                device: calibration.device, threshold: calibration.threshold,
                sustainedThreshold: calibration.sustainedThreshold, strokePeak: calibration.strokePeak,
                noise: calibration.noise)
        } catch .invalidDuration(let message) {
            throw ReplyError.invalidDuration(message: message)
        } catch {
            throw ReplyError.calibrationFailed(message: error.description)
        }
    }

    typealias ReplyError = ShakyAPI.SensorInterface.ReplyError
}

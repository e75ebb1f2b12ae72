import ShakeDetection
import ShakyStore

/// Where the sensor pipeline keeps each device's calibration (the database, in the daemon).
public struct SensorCalibrations: Sendable {
    /// The calibration saved for a device key, or `nil`.
    public var load: @Sendable (String) throws -> SensorCalibration?
    /// Saves a calibration, replacing the device's previous one.
    public var save: @Sendable (SensorCalibration) throws -> Void

    /// Creates a store from its two operations.
    public init(
        load: @escaping @Sendable (String) throws -> SensorCalibration?,
        save: @escaping @Sendable (SensorCalibration) throws -> Void
    ) {
        self.load = load
        self.save = save
    }

    /// The calibrations kept in `database`.
    public init(database: AppDatabase) {
        self.init(
            load: { try database.sensorCalibration(device: $0) }, save: { try database.saveSensorCalibration($0) })
    }
}

/// A step of a calibration, as the person holding the device must hear it.
public enum SensorCalibrationStep: String, Sendable {
    /// Shake the device as the players will.
    case shake
    /// Hold the device still.
    case holdStill = "still"
}

/// Why a calibration gave no result, for a person.
public enum SensorCalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sensor cannot be calibrated now (none attached, a round is open, it failed).
    case unavailable(String)
    /// The samples gave no usable result (too short, too gentle), or it could not be saved.
    case failed(String)
    /// A step's duration is out of range.
    case invalidDuration(String)
    /// The sensor stopped sending samples during the calibration.
    case sensorSilent(String)

    public var description: String {
        switch self {
        case .unavailable(let message), .failed(let message), .invalidDuration(let message),
            .sensorSilent(let message):
            message
        }
    }
}

/// Splits a calibration's samples into its steps by their timestamps: shaking for the first `shakingSeconds`,
/// a second to stop, then holding still for `stillSeconds`.
///
/// The time is summed over the intervals between samples, each counted for at most ``longestInterval`` and a
/// backward one for nothing: sample times that jump (a device stamping with a wall clock that is stepped) move the
/// steps by at most that much, instead of ending the calibration at once or holding it for as long as the jump.
struct SensorCalibrationPhases: Sendable {
    enum Phase: Equatable { case shaking, stopping, holdingStill, done }

    /// Seconds between the end of the shaking and the start of holding still.
    static let stoppingSeconds = 1.0
    /// Samples after which a calibration ends whatever the timestamps say (a clock that never advances).
    static let sampleLimit = 200_000
    /// The most one interval between two samples counts for, seconds.
    static let longestInterval = 0.5

    let shakingSeconds: Double
    let stillSeconds: Double
    /// The last sample's time.
    private var last: Double?
    /// The time the calibration has run, summed over the intervals between samples.
    private var elapsed = 0.0
    private var samples = 0
    private(set) var enteredStopping = false
    private(set) var isDone = false
    private var stopped = false

    init(shakingSeconds: Double, stillSeconds: Double) {
        self.shakingSeconds = shakingSeconds
        self.stillSeconds = stillSeconds
    }

    /// The phase a sample at `time` belongs to; ``enteredStopping`` is true for the first sample past the shaking.
    mutating func phase(of time: Double) -> Phase {
        samples += 1
        enteredStopping = false
        guard time.isFinite else { return isDone ? .done : .stopping }
        if let last { elapsed += min(max(0, time - last), Self.longestInterval) }
        last = time
        let phase: Phase
        if samples > Self.sampleLimit || elapsed >= shakingSeconds + Self.stoppingSeconds + stillSeconds {
            phase = .done
        } else if elapsed < shakingSeconds && !stopped {
            phase = .shaking
        } else if elapsed < shakingSeconds + Self.stoppingSeconds {
            phase = .stopping
        } else {
            phase = .holdingStill
        }
        if phase != .shaking && !stopped {
            stopped = true
            enteredStopping = true
        }
        if phase == .done { isDone = true }
        return phase
    }
}

extension SensorCalibration {
    /// The thresholds as the detector takes them.
    var result: ShakeCalibrationResult {
        ShakeCalibrationResult(
            threshold: threshold, sustainedThreshold: sustainedThreshold, strokePeak: strokePeak, noise: noise)
    }
}

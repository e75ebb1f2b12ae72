import ShakeDetection

/// The accelerometer as the daemon sees it: what the sensor pipeline reports and `Sensor.Status` answers.
public struct SensorReport: Sendable, Equatable {
    /// Where the accelerometer is.
    public enum State: Sendable, Equatable {
        /// None was found; hints are manual.
        case absent
        /// Attached, read while a round is open.
        case ready
        /// Being read now.
        case reading
        /// Unplugged, waiting for it to come back; or a trace replayed to its end, which does not come back.
        case gone
    }

    /// Where the accelerometer is.
    public var state: State
    /// The driver reading it (`iio-buffer`, `iio-poll`, `evdev`, `trace`).
    public var driver: String?
    /// Its device path.
    public var device: String?
    /// Samples per second.
    public var rate: Double?
    /// Shakes detected since the daemon started.
    public var shakes: Int
    /// How hard a shake must be to count.
    public var sensitivity: ShakeSensitivity
    /// Why there is no sensor, the last problem, or how it is read when not the usual way.
    public var message: String?
    /// Which way the readings' axes point, in words.
    public var frame: String?
    /// The motion controllers shaking for hints next to the sensor now, by device node.
    public var controllers: [String] = []

    /// Creates a report.
    public init(
        state: State, driver: String? = nil, device: String? = nil, rate: Double? = nil, shakes: Int = 0,
        sensitivity: ShakeSensitivity, message: String? = nil, frame: String? = nil
    ) {
        self.state = state
        self.driver = driver
        self.device = device
        self.rate = rate
        self.shakes = shakes
        self.sensitivity = sensitivity
        self.message = message
        self.frame = frame
    }

    /// Attached (ready or being read).
    public var isPresent: Bool { state == .ready || state == .reading }
}

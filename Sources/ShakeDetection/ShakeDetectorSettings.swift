/// How readily the detector fires: a named preset of ``ShakeDetectorSettings``.
public enum ShakeSensitivity: String, CaseIterable, Codable, Sendable {
    /// Fires sooner and on gentler shaking; also fires while the device is carried in a pocket or bag.
    case light
    /// The default balance between missed shakes and false triggers.
    case medium
    /// Needs vigorous shaking; almost never fires on anything else.
    case hard
}

/// The tunable parameters of ``ShakeDetector``, all in seconds and m/s², never in samples.
///
/// The same settings decide the same at 10, 50 or 100 Hz: every duration is measured on the
/// samples' own timestamps.
public struct ShakeDetectorSettings: Codable, Equatable, Sendable {
    /// Minimum gravity-removed acceleration, m/s², for a sample to count as vigorous motion.
    public var threshold: Double
    /// Length of the recent window that is judged, seconds.
    public var window: Double
    /// Share of the window (0…1, by time) that must be above ``threshold``.
    public var activeFraction: Double
    /// Direction reversals of the above-threshold acceleration needed inside the window.
    ///
    /// A reversal is an above-threshold sample whose gravity-removed acceleration points against
    /// (negative dot product with) the previous above-threshold sample's: the back-and-forth that
    /// makes a shake. A bump, a heel strike or a single swipe gives at most one.
    public var minimumReversals: Int
    /// After firing, nothing fires again for this long, seconds.
    public var cooldown: Double
    /// Time constant of the running gravity estimate, seconds.
    public var gravityTimeConstant: Double
    /// A gap between samples longer than this, seconds, restarts the estimate and the window.
    public var maximumGap: Double

    /// Creates settings from explicit values; check them with ``validate()``.
    public init(
        threshold: Double, window: Double, activeFraction: Double, minimumReversals: Int, cooldown: Double,
        gravityTimeConstant: Double = 1.0, maximumGap: Double = 0.5
    ) {
        self.threshold = threshold
        self.window = window
        self.activeFraction = activeFraction
        self.minimumReversals = minimumReversals
        self.cooldown = cooldown
        self.gravityTimeConstant = gravityTimeConstant
        self.maximumGap = maximumGap
    }

    /// The preset for `sensitivity`.
    public init(sensitivity: ShakeSensitivity) {
        switch sensitivity {
        case .light: self = .light
        case .medium: self = .medium
        case .hard: self = .hard
        }
    }

    /// Gentle, short shakes count: 0.1 s above 12 m/s² within 0.25 s, with one reversal.
    ///
    /// Fires within 0.2 s of a 4 Hz ±2 g shake, but also while walking with the device in a pocket or bag.
    public static let light = ShakeDetectorSettings(
        threshold: 12, window: 0.25, activeFraction: 0.4, minimumReversals: 1, cooldown: 1.0)
    /// The default: 0.25 s above 14 m/s² within 0.5 s, with one reversal.
    ///
    /// Brisk shaking counts; walking, bumps, pick-ups and most swipes and circles do not.
    public static let medium = ShakeDetectorSettings(
        threshold: 14, window: 0.5, activeFraction: 0.5, minimumReversals: 1, cooldown: 1.0)
    /// Only vigorous shaking counts: 0.25 s above 18 m/s² within 0.5 s, with one reversal.
    public static let hard = ShakeDetectorSettings(
        threshold: 18, window: 0.5, activeFraction: 0.5, minimumReversals: 1, cooldown: 1.0)

    /// Checks every parameter; throws the first problem found.
    public func validate() throws(ShakeDetectorSettingsError) {
        func check(
            _ ok: Bool, _ name: String, _ value: Double, _ requirement: String
        )
            throws(ShakeDetectorSettingsError)
        {
            if !ok { throw ShakeDetectorSettingsError(parameter: name, value: value, requirement: requirement) }
        }
        try check(threshold.isFinite && threshold > 0, "threshold", threshold, "a positive number of m/s²")
        try check(
            window.isFinite && window > 0 && window <= 10, "window", window, "more than 0 and at most 10 seconds")
        try check(
            activeFraction.isFinite && activeFraction >= 0 && activeFraction <= 1, "activeFraction",
            activeFraction, "between 0 and 1")
        try check(
            minimumReversals >= 0 && minimumReversals <= 1000, "minimumReversals", Double(minimumReversals),
            "between 0 and 1000")
        try check(
            cooldown.isFinite && cooldown >= 0, "cooldown", cooldown, "zero or a positive number of seconds")
        try check(
            gravityTimeConstant.isFinite && gravityTimeConstant > 0, "gravityTimeConstant", gravityTimeConstant,
            "a positive number of seconds")
        try check(
            maximumGap.isFinite && maximumGap > 0, "maximumGap", maximumGap, "a positive number of seconds")
    }
}

/// A setting that ``ShakeDetectorSettings/validate()`` rejects: which one, its value, and what is allowed.
public struct ShakeDetectorSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter's name, as in ``ShakeDetectorSettings``.
    public var parameter: String
    /// The rejected value.
    public var value: Double
    /// What the parameter must be, for a person.
    public var requirement: String

    /// Creates an error.
    public init(parameter: String, value: Double, requirement: String) {
        self.parameter = parameter
        self.value = value
        self.requirement = requirement
    }

    public var description: String {
        "invalid shake detector setting \(parameter) = \(value): must be \(requirement)"
    }
}

/// How readily the detector fires: a named preset of ``ShakeDetectorTuning``.
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
/// The same tuning decides the same at 10, 50 or 100 Hz: every duration is measured on the
/// samples' own timestamps. Two windows are judged: a short **brisk** one for vigorous shaking, and a
/// **sustained** one for gentler shaking that goes back and forth along one line for longer.
public struct ShakeDetectorTuning: Codable, Equatable, Sendable {
    /// Minimum gravity-removed acceleration, m/s², for a sample to count as vigorous motion (brisk window).
    public var threshold: Double
    /// Share (0…1] of ``threshold`` that counts below 20 Hz sampling: there a sample seldom lands on a stroke's
    /// peak (a 4 Hz shake at 10 Hz is seen at a few points of each stroke), so what it sees of the same shake is
    /// weaker.
    public var coarseThresholdShare: Double
    /// Length of the brisk window, seconds.
    public var window: Double
    /// Share of the brisk window (0…1, by time) that must be above ``threshold``.
    public var activeFraction: Double
    /// Direction reversals of the above-threshold acceleration needed inside the brisk window.
    ///
    /// A reversal is an above-threshold sample whose gravity-removed acceleration points against
    /// (negative dot product with) the previous above-threshold sample's, or straight back against the
    /// strongest sample of the current stroke: the back-and-forth that makes a shake. A bump or a heel
    /// strike gives at most one, and so does a swipe (speed up, then brake). Below 20 Hz, where samples
    /// miss half-cycles, one fewer is needed (at least one).
    public var minimumReversals: Int
    /// Minimum gravity-removed acceleration, m/s², for a sample to count in the sustained window.
    public var sustainedThreshold: Double
    /// Length of the sustained window, seconds.
    public var sustainedWindow: Double
    /// Share of the sustained window (0…1, by time) that must be above ``sustainedThreshold``.
    public var sustainedActiveFraction: Double
    /// Straight reversals (pointing back within about 25°) needed inside the sustained window.
    public var sustainedReversals: Int
    /// Highest frequency, Hz, of the recent motion for the sustained window to qualify: faster steady motion is
    /// vibration (a motor, a vehicle, tapping), not a hand shaking the device.
    ///
    /// Estimated as √(Σ|da/dt|² / Σ|a|²) / 2π of the gravity-removed acceleration, which is exact for a sine, with
    /// older samples forgotten over ``sustainedWindow`` seconds (a time constant). Below about 20 Hz sampling the
    /// estimate cannot exceed a third of the sample rate, so the limit then rarely applies.
    public var sustainedMaximumFrequency: Double
    /// Highest share (0…1) of the recent motion's power along gravity for the sustained window to qualify (forgotten
    /// over ``sustainedWindow`` seconds, as for the frequency): gentle up-and-down motion is what walking, climbing
    /// stairs and lifting the device look like. A vigorous vertical shake still qualifies in the brisk window.
    public var sustainedMaximumVerticalShare: Double
    /// Highest crest factor of the recent motion for the sustained window to qualify: its strongest sample in the
    /// window over the root mean square of its motion (forgotten over ``sustainedWindow`` seconds, as for the
    /// frequency). A sine has √2; steady shaking stays near it, while a few jolts between weaker motion (knocking the
    /// device about) are far above. 2√2 by default.
    public var sustainedMaximumCrestFactor: Double
    /// Highest rotation (0…1) of the motion's direction for either window to qualify at 20 Hz and above (forgotten
    /// over ``sustainedWindow`` seconds): how consistently the gravity-removed acceleration turns one way, 1 round a
    /// circle, 0 back and forth along a line. A circle or an ellipse drawn in the air keeps turning; a shake that
    /// wobbles turns one way and back. At 1 the test is off.
    public var maximumRotation: Double
    /// After firing, nothing fires again for this long, seconds. The windows keep counting meanwhile, so a shake
    /// still going on when the cooldown ends fires again at once.
    public var cooldown: Double
    /// Time constant of the running gravity estimate, seconds.
    public var gravityTimeConstant: Double
    /// A gap between samples longer than this, seconds, restarts the estimate and the windows.
    public var maximumGap: Double

    /// Creates a tuning from explicit values; check them with ``validate()``.
    public init(
        threshold: Double, coarseThresholdShare: Double = 1, window: Double, activeFraction: Double,
        minimumReversals: Int,
        sustainedThreshold: Double = 5, sustainedWindow: Double = 0.6, sustainedActiveFraction: Double = 0.4,
        sustainedReversals: Int = 5, sustainedMaximumFrequency: Double = 7, sustainedMaximumVerticalShare: Double = 0.5,
        sustainedMaximumCrestFactor: Double = 2 * 2.0.squareRoot(), maximumRotation: Double = 1, cooldown: Double,
        gravityTimeConstant: Double = 1.0, maximumGap: Double = 0.5
    ) {
        self.threshold = threshold
        self.coarseThresholdShare = coarseThresholdShare
        self.window = window
        self.activeFraction = activeFraction
        self.minimumReversals = minimumReversals
        self.sustainedThreshold = sustainedThreshold
        self.sustainedWindow = sustainedWindow
        self.sustainedActiveFraction = sustainedActiveFraction
        self.sustainedReversals = sustainedReversals
        self.sustainedMaximumFrequency = sustainedMaximumFrequency
        self.sustainedMaximumVerticalShare = sustainedMaximumVerticalShare
        self.sustainedMaximumCrestFactor = sustainedMaximumCrestFactor
        self.maximumRotation = maximumRotation
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

    /// Gentle, short shakes count: 0.1 s above 12 m/s² within 0.4 s with one reversal, or 0.24 s above 4 m/s²
    /// within 0.6 s with four straight reversals.
    ///
    /// Fires within 0.2 s of a 4 Hz ±2 g shake, but also on brisk gestures and while walking with the device in
    /// a pocket or bag.
    public static let light = ShakeDetectorTuning(
        threshold: 12, window: 0.4, activeFraction: 0.25, minimumReversals: 1, sustainedThreshold: 4,
        sustainedWindow: 0.6, sustainedActiveFraction: 0.4, sustainedReversals: 4, cooldown: 1.0)
    /// The default: 0.15 s above 16 m/s² (12 m/s² below 20 Hz) within 0.4 s with two reversals (one below
    /// 20 Hz), or 0.21 s above 4.5 m/s² within 0.6 s with five straight reversals, at most 7 Hz, at most half
    /// along gravity and with a crest factor of at most 2√2; at 20 Hz and above, with a rotation of at most 0.4 (a
    /// circle 1, a line 0, an ellipse whose minor axis is a fifth of its major one about 0.4).
    ///
    /// Brisk or steady shaking counts; walking, bumps, turning the device over, pick-ups, swipes, circles,
    /// vibration and gentle up-and-down motion almost never do.
    public static let medium = ShakeDetectorTuning(
        threshold: 16, coarseThresholdShare: 0.75, window: 0.4, activeFraction: 0.375, minimumReversals: 2,
        sustainedThreshold: 4.5, sustainedWindow: 0.6, sustainedActiveFraction: 0.35, sustainedReversals: 5,
        maximumRotation: 0.4, cooldown: 0.75)
    /// Only vigorous shaking counts: 0.15 s above 20 m/s² (16 m/s² below 20 Hz) within 0.4 s with two reversals
    /// (one below 20 Hz), or 0.24 s above 8 m/s² within 0.6 s with five straight reversals.
    public static let hard = ShakeDetectorTuning(
        threshold: 20, coarseThresholdShare: 0.8, window: 0.4, activeFraction: 0.375, minimumReversals: 2,
        sustainedThreshold: 8, sustainedWindow: 0.6, sustainedActiveFraction: 0.4, sustainedReversals: 5,
        maximumRotation: 0.4, cooldown: 0.75)

    /// Checks every parameter; throws the first problem found.
    public func validate() throws(ShakeDetectorTuningError) {
        func check(
            _ ok: Bool, _ name: String, _ value: Double, _ requirement: String
        )
            throws(ShakeDetectorTuningError)
        {
            if !ok { throw ShakeDetectorTuningError(parameter: name, value: value, requirement: requirement) }
        }
        try check(threshold.isFinite && threshold > 0, "threshold", threshold, "a positive number of m/s²")
        try check(
            coarseThresholdShare.isFinite && coarseThresholdShare > 0 && coarseThresholdShare <= 1,
            "coarseThresholdShare", coarseThresholdShare, "more than 0 and at most 1")
        try check(
            window.isFinite && window > 0 && window <= 10, "window", window, "more than 0 and at most 10 seconds")
        try check(
            activeFraction.isFinite && activeFraction >= 0 && activeFraction <= 1, "activeFraction",
            activeFraction, "between 0 and 1")
        try check(
            minimumReversals >= 0 && minimumReversals <= 1000, "minimumReversals", Double(minimumReversals),
            "between 0 and 1000")
        try check(
            sustainedThreshold.isFinite && sustainedThreshold > 0, "sustainedThreshold", sustainedThreshold,
            "a positive number of m/s²")
        try check(
            sustainedWindow.isFinite && sustainedWindow > 0 && sustainedWindow <= 10, "sustainedWindow",
            sustainedWindow, "more than 0 and at most 10 seconds")
        try check(
            sustainedActiveFraction.isFinite && sustainedActiveFraction >= 0 && sustainedActiveFraction <= 1,
            "sustainedActiveFraction", sustainedActiveFraction, "between 0 and 1")
        try check(
            sustainedReversals >= 0 && sustainedReversals <= 1000, "sustainedReversals", Double(sustainedReversals),
            "between 0 and 1000")
        try check(
            sustainedMaximumFrequency.isFinite && sustainedMaximumFrequency > 0, "sustainedMaximumFrequency",
            sustainedMaximumFrequency, "a positive number of Hz")
        try check(
            sustainedMaximumVerticalShare.isFinite && sustainedMaximumVerticalShare >= 0
                && sustainedMaximumVerticalShare <= 1, "sustainedMaximumVerticalShare", sustainedMaximumVerticalShare,
            "between 0 and 1")
        try check(
            sustainedMaximumCrestFactor.isFinite && sustainedMaximumCrestFactor >= 1, "sustainedMaximumCrestFactor",
            sustainedMaximumCrestFactor, "a finite number of at least 1")
        try check(
            maximumRotation.isFinite && maximumRotation >= 0 && maximumRotation <= 1, "maximumRotation",
            maximumRotation, "between 0 and 1")
        try check(
            cooldown.isFinite && cooldown >= 0, "cooldown", cooldown, "zero or a positive number of seconds")
        try check(
            gravityTimeConstant.isFinite && gravityTimeConstant > 0, "gravityTimeConstant", gravityTimeConstant,
            "a positive number of seconds")
        try check(
            maximumGap.isFinite && maximumGap > 0, "maximumGap", maximumGap, "a positive number of seconds")
    }
}

/// A setting that ``ShakeDetectorTuning/validate()`` rejects: which one, its value, and what is allowed.
public struct ShakeDetectorTuningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter's name, as in ``ShakeDetectorTuning``.
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

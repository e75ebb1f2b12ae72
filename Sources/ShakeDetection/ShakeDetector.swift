import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a stream of accelerometer samples into shake events: a threshold/cooldown detector.
///
/// For each sample it
/// 1. removes gravity with a running estimate (an exponential average over ``ShakeDetectorTuning/gravityTimeConstant``
///    seconds, weighted by the real time between samples, scaled to standard gravity);
/// 2. judges two recent windows of the remaining acceleration:
///    - the **brisk** window (``ShakeDetectorTuning/window`` seconds): samples above
///      ``ShakeDetectorTuning/threshold`` must cover ``ShakeDetectorTuning/activeFraction`` of it, with at least
///      ``ShakeDetectorTuning/minimumReversals`` reversals. A reversal is an above-threshold sample pointing
///      against the previous one, or straight back (within about 30°, ``strokeReversalCosine``) against the
///      strongest sample of the current stroke, so an elliptical shake whose direction turns gradually still
///      reverses. A swipe (speed up, then brake) gives one reversal; a shake keeps going;
///    - the **sustained** window (``ShakeDetectorTuning/sustainedWindow`` seconds), for gentler but steady shaking:
///      samples above ``ShakeDetectorTuning/sustainedThreshold`` must cover
///      ``ShakeDetectorTuning/sustainedActiveFraction`` of it, with at least
///      ``ShakeDetectorTuning/sustainedReversals`` *straight* reversals (pointing back within about 25°, see
///      ``straightReversalCosine``, against the previous strong sample or the strongest of the current stroke, so
///      that a harder shake, whose strong samples reach round the turn, counts as many), the back-and-forth along
///      one line that sets a shake apart from walking and from turning or waving the device. The recent motion must
///      also look like a hand shaking the device (see ``MotionShape``): at most
///      ``ShakeDetectorTuning/sustainedMaximumFrequency`` (faster is vibration: a motor, a vehicle, tapping), and
///      at most ``ShakeDetectorTuning/sustainedMaximumVerticalShare`` of its power along gravity (gentle
///      up-and-down motion is what walking, climbing stairs and lifting the device look like; a vigorous vertical
///      shake still qualifies in the brisk window);
/// 3. at 20 Hz and above, turns away motion whose direction keeps turning one way
///    (``ShakeDetectorTuning/maximumRotation``, judged on the recent motion like the shape limits): a circle or an
///    ellipse drawn in the air, turning the device round. A shake goes back and forth; when it wobbles, its turns
///    cancel;
/// 4. fires when either window qualifies, then does not fire again for ``ShakeDetectorTuning/cooldown`` seconds.
///    The windows keep counting through the cooldown, so a shake still going on when it ends fires again on its
///    next strong sample, and one that has stopped does not: a window fires only on a sample above its threshold.
///
/// Samples further apart than ``coarseInterval`` cannot show every half-cycle of a 3–6 Hz shake (it is aliased).
/// There the brisk window needs one reversal fewer (at least one) and counts samples above
/// ``ShakeDetectorTuning/coarseThresholdShare`` of its threshold (a sample seldom lands on a stroke's peak), and an
/// above-threshold sample also counts as a reversal when, since the previous one, the motion along that one's
/// direction fell below ``coarseDipFraction`` of the threshold or pointed back, or when it exceeds
/// ``coarseUnmistakableMagnitude`` without pointing the way the previous one did (within about 25°,
/// ``sameStrokeCosine``: that is one stroke growing). Two strong samples in a row
/// pointing the same way, below that magnitude, are what turning the device over looks like: the gravity estimate
/// lags and up to 2 g of apparent motion remains for a moment.
///
/// For the same reason, below 20 Hz a brisk window that qualifies with its fewest reversals on a sample of at most
/// ``coarseTurnMagnitude`` waits for the next samples before it fires: a jolt followed by turning the device is two
/// strong samples pointing apart, like a shake's first stroke, but then the apparent motion stays where the turn
/// left it, while a shake comes back. It fires on the first sample, within ``coarseConfirmationTime``, whose motion
/// along the waiting sample's direction falls below ``coarseDipFraction`` of the threshold (or points back), and
/// otherwise not until a new reversal.
///
/// A knock is the other thing that looks like a shake's first stroke at 10 Hz: one sample far beyond
/// ``coarseJoltMagnitude`` and one weak sample pointing back (the hand absorbing it), then nothing. In a shake the
/// way back carries as much impulse (∫a dt) as the stroke it reverses; so when the stroke reversed was stronger than
/// ``coarseJoltMagnitude``, the waiting window fires only when the motion back against it, summed from the reversing
/// sample through the one that comes back, carries at least ``coarseReturnImpulseShare`` of that stroke's strongest
/// sample's impulse, or when the sample that comes back is itself a new reversal (a third stroke).
///
/// Each window is kept as a fixed number of time slots, so memory is constant and nothing is allocated per sample.
/// Pure: time comes only from the samples' timestamps.
public struct ShakeDetector: Sendable {
    /// The settings in use (validated).
    public let settings: ShakeDetectorTuning

    /// A sample interval from which direction reversals are no longer reliably observable, seconds (below 20 Hz).
    public static let coarseInterval = 0.05
    /// Cosine of the angle between successive above-threshold samples below which a sustained reversal counts.
    public static let straightReversalCosine = -0.9
    /// Cosine of the angle to the strongest sample of the current stroke below which a brisk reversal counts.
    public static let strokeReversalCosine = -0.85
    /// Below 20 Hz: the share of the brisk threshold that the motion must fall below between two strong samples for
    /// the second to count as a reversal.
    public static let coarseDipFraction = 0.3
    /// Below 20 Hz: a strong sample above this magnitude, m/s², counts as a reversal on its own (2.3 g: more than
    /// turning the device over can fake).
    public static let coarseUnmistakableMagnitude = 2.3 * AccelSample.standardGravity
    /// Below 20 Hz: a strong sample beyond ``coarseUnmistakableMagnitude`` does not count as a reversal when its
    /// cosine to the previous strong sample exceeds this: the same stroke, growing.
    public static let sameStrokeCosine = 0.9
    /// Below 20 Hz: a brisk window that qualifies with its fewest reversals on a sample of at most this magnitude,
    /// m/s², waits for the motion to come back before it fires (1.8 g: what turning the device leaves in the motion
    /// from one sample to the next; 2 g at most, when the gravity estimate has not followed at all).
    public static let coarseTurnMagnitude = 1.8 * AccelSample.standardGravity
    /// Below 20 Hz: how long, seconds, a waiting brisk window waits for the motion to come back (a turn leaves it
    /// for about half a second, a shake's stroke lasts at most a quarter of one).
    public static let coarseConfirmationTime = 0.2
    /// Below 20 Hz: a stroke stronger than this, m/s², that a waiting brisk window reversed must be answered by a way
    /// back carrying ``coarseReturnImpulseShare`` of its impulse (2.5 g: a knock, beyond what turning fakes).
    public static let coarseJoltMagnitude = 2.5 * AccelSample.standardGravity
    /// Below 20 Hz: the share of the impulse of a stroke beyond ``coarseJoltMagnitude`` (its strongest sample times
    /// that sample's interval) that the way back against it must carry for a waiting brisk window to fire. A shake's
    /// way back carries all of it; a knock's weak rebound, spread out as the hand absorbs it, about 0.4 by then.
    public static let coarseReturnImpulseShare = 0.5

    /// The largest reading on any axis, m/s², that the detector takes in (about 100 000 g: no accelerometer reads
    /// more); beyond it a sample is ignored, so that squares and sums of readings stay finite.
    public static let largestReading = 1e6

    private var brisk: WindowTally
    private var sustained: WindowTally
    private var shape = MotionShape()
    private let maximumAngularFrequencySquared: Double
    private let maximumRotationSquared: Double
    private let maximumCrestSquared: Double
    private let returnLevelSquared: Double
    private static let coarseJoltMagnitudeSquared = coarseJoltMagnitude * coarseJoltMagnitude

    private var started = false
    private var lastTimestamp = 0.0
    private var gravityX = 0.0
    private var gravityY = 0.0
    private var gravityZ = 0.0
    private var gravityWeight = 0.0
    private var cachedInterval = -1.0
    private var gravityDecay = 0.0
    private var shapeDecay = 0.0
    private var inverseInterval = 0.0
    /// The interval whose decays were last computed with `exp`, and those decays (see ``cacheIntervalTerms(_:)``).
    private var anchorInterval = -1.0
    private var anchorGravityDecay = 0.0
    private var anchorShapeDecay = 0.0
    private let inverseGravityTimeConstant: Double
    private let inverseSustainedWindow: Double

    private var cooldownEnd = -Double.infinity

    /// Below 20 Hz: a brisk trigger waiting for the motion to come back (see ``coarseTurnMagnitude``).
    private var waiting: CoarseConfirmation?
    /// Below 20 Hz: after a wait in vain, the brisk window fires again only after a new reversal.
    private var briskWithheld = false

    /// Creates a detector in its cold-start state; throws when `settings` are invalid.
    public init(settings: ShakeDetectorTuning = .medium) throws(ShakeDetectorTuningError) {
        try settings.validate()
        self.init(validated: settings)
    }

    /// Creates a detector with the preset for `sensitivity`.
    public init(sensitivity: ShakeSensitivity) {
        // The presets are valid by construction (`ShakeDetectorTuningTests` validates each one).
        self.init(validated: ShakeDetectorTuning(sensitivity: sensitivity))
    }

    /// Creates a detector from settings already validated.
    private init(validated settings: ShakeDetectorTuning) {
        self.settings = settings
        inverseGravityTimeConstant = 1 / settings.gravityTimeConstant
        inverseSustainedWindow = 1 / settings.sustainedWindow
        brisk = WindowTally(
            threshold: settings.threshold, coarseThreshold: settings.coarseThresholdShare * settings.threshold,
            window: settings.window, activeFraction: settings.activeFraction, reversals: settings.minimumReversals,
            coarseReversals: min(settings.minimumReversals, max(1, settings.minimumReversals - 1)),
            rules: .init(
                successiveCosine: 0, strokeCosine: Self.strokeReversalCosine,
                coarseDip: Self.coarseDipFraction * settings.threshold,
                coarseUnmistakable: Self.coarseUnmistakableMagnitude, sameStrokeCosine: Self.sameStrokeCosine))
        sustained = WindowTally(
            threshold: settings.sustainedThreshold, coarseThreshold: settings.sustainedThreshold,
            window: settings.sustainedWindow,
            activeFraction: settings.sustainedActiveFraction, reversals: settings.sustainedReversals,
            coarseReversals: settings.sustainedReversals,
            rules: .init(
                successiveCosine: Self.straightReversalCosine, strokeCosine: Self.straightReversalCosine,
                coarseDip: nil,
                coarseUnmistakable: .infinity, sameStrokeCosine: 1))
        let maximumAngularFrequency = 2 * Double.pi * settings.sustainedMaximumFrequency
        maximumAngularFrequencySquared = maximumAngularFrequency * maximumAngularFrequency
        // At 1 the test is off (the rotation never exceeds 1).
        maximumRotationSquared =
            settings.maximumRotation >= 1 ? .infinity : settings.maximumRotation * settings.maximumRotation
        maximumCrestSquared = settings.sustainedMaximumCrestFactor * settings.sustainedMaximumCrestFactor
        returnLevelSquared = Self.coarseDipFraction * settings.threshold * Self.coarseDipFraction * settings.threshold
    }

    /// The sample time, seconds, before which the detector does not fire whatever it is fed next.
    ///
    /// The later of the cooldown's end and the last sample's time plus the active time both windows still lack: a
    /// window qualifies only once it holds ``ShakeDetectorTuning/activeFraction`` of its length above the threshold,
    /// and each later sample adds at most the time since the one before. At rest that is the shortest shake the
    /// settings detect (0.15 s with the default preset); while a knock below 20 Hz waits for its way back, the next
    /// sample may fire. `-infinity` before the first sample. A timestamp that goes backwards resets the detector,
    /// and the time with it. Made for a reader that need not look at the samples before then.
    public var firesNoSoonerThan: Double {
        guard started, waiting == nil else { return cooldownEnd }
        let lacking = min(brisk.activeTimeLacking, sustained.activeTimeLacking)
        // Sums of intervals round differently from the difference of the times: a microsecond to spare.
        return max(cooldownEnd, lastTimestamp + lacking - 1e-6)
    }

    /// Forgets everything seen so far, as if newly created.
    public mutating func reset() {
        restart()
        cooldownEnd = -.infinity
    }

    /// Feeds one sample; returns an event when the detector fires at this sample.
    ///
    /// Samples should arrive in timestamp order. A gap longer than ``ShakeDetectorTuning/maximumGap`` restarts the
    /// gravity estimate and the windows (the cooldown still runs); a timestamp that goes backwards resets everything.
    /// A repeated timestamp adds no time. Samples with a non-finite timestamp, or a reading that is not finite or
    /// beyond ``largestReading``, are ignored. Total: no finite or non-finite input traps, at any timestamp.
    public mutating func process(_ sample: AccelSample) -> ShakeEvent? {
        let time = sample.timestamp
        guard time.isFinite, abs(sample.x) <= Self.largestReading, abs(sample.y) <= Self.largestReading,
            abs(sample.z) <= Self.largestReading
        else { return nil }
        var interval = time - lastTimestamp
        if !started || interval > settings.maximumGap || interval < 0 {
            if started && interval < 0 { cooldownEnd = -.infinity }
            restart()
            started = true
            gravityX = sample.x
            gravityY = sample.y
            gravityZ = sample.z
            interval = 0
        }
        lastTimestamp = time
        if interval > 0 { cacheIntervalTerms(interval) }
        updateGravity(with: sample, interval: interval)

        let gravityNormSquared = gravityX * gravityX + gravityY * gravityY + gravityZ * gravityZ
        let inverseNorm = gravityNormSquared > 0 ? 1 / gravityNormSquared.squareRoot() : 0
        let scale = AccelSample.standardGravity * inverseNorm
        let motion = Motion(
            x: sample.x - gravityX * scale, y: sample.y - gravityY * scale, z: sample.z - gravityZ * scale)
        let coarse = interval >= Self.coarseInterval
        if interval > 0 {
            let vertical = (motion.x * gravityX + motion.y * gravityY + motion.z * gravityZ) * inverseNorm
            shape.add(
                motion, vertical: vertical, interval: interval, inverseInterval: inverseInterval, decay: shapeDecay)
        }

        var briskReady = brisk.add(motion, at: time, interval: interval, coarse: coarse)
        let sustainedReady =
            sustained.add(motion, at: time, interval: interval, coarse: coarse)
            && shape.isShake(
                maximumAngularFrequencySquared: maximumAngularFrequencySquared,
                maximumVerticalShare: settings.sustainedMaximumVerticalShare)
            && shape.isSteady(
                peakSquared: sustained.peakSquared(), maximumCrestSquared: maximumCrestSquared,
                timeConstant: settings.sustainedWindow)
        if brisk.lastSampleReversed { briskWithheld = false }
        if coarse && briskWithheld { briskReady = false }
        if var waiting {
            waiting.addReturn(motion, interval: interval)
            if waiting.cameBack(motion, belowSquared: returnLevelSquared) {
                self.waiting = nil
                // A knock's weak rebound: the way back did not carry the stroke's impulse, and no third stroke came.
                if !brisk.lastSampleReversed && !waiting.returnedImpulse(share: Self.coarseReturnImpulseShare) {
                    briskWithheld = true
                    return nil
                }
                if time >= cooldownEnd { return fire(at: time) }
            } else if time - waiting.time > Self.coarseConfirmationTime {
                // The motion stayed where the first strong samples left it: a turn, not a shake.
                self.waiting = nil
                briskWithheld = true
                briskReady = false
            } else {
                self.waiting = waiting
                briskReady = false
            }
        }
        guard time >= cooldownEnd, briskReady || sustainedReady else { return nil }
        // Below 20 Hz a stroke is a few samples: too few to see which way the direction turns.
        guard coarse || !shape.isTurning(maximumRotationSquared: maximumRotationSquared) else { return nil }
        if coarse && !sustainedReady && brisk.hasFewestReversals(coarse: true)
            && motion.magnitudeSquared <= Self.coarseTurnMagnitude * Self.coarseTurnMagnitude
        {
            var confirmation = CoarseConfirmation(direction: motion, time: time)
            if brisk.lastSampleReversed, let stroke = brisk.reversedStroke,
                stroke.peak.magnitudeSquared > Self.coarseJoltMagnitudeSquared
            {
                confirmation.watchReturn(against: stroke.peak, impulse: stroke.interval)
                confirmation.addReturn(motion, interval: interval)
            }
            waiting = confirmation
            return nil
        }
        return fire(at: time)
    }

    /// Fires at `time`: starts the cooldown and reports the strongest recent motion.
    private mutating func fire(at time: Double) -> ShakeEvent {
        cooldownEnd = time + settings.cooldown
        let peakSquared = max(brisk.peakSquared(), sustained.peakSquared())
        return ShakeEvent(timestamp: time, peakMagnitude: peakSquared.squareRoot())
    }

    /// Computes the decays and the inverse of a (positive) sample interval, once per new interval: those of a steady
    /// stream differ only by rounding, so they are reused while within a nanosecond.
    ///
    /// A real device's intervals jitter by microseconds, which would make each sample call `exp` twice. Within
    /// ``seriesStepLimit`` time constants of the interval whose decays were last computed with `exp` (the anchor),
    /// each decay is the anchor's times exp(−step) by its series to the third power: the first term left out is
    /// step⁴/24, under 5·10⁻¹⁴ of the decay, the rounding of the arithmetic around it. Each interval is measured
    /// from the anchor, not from the previous one, so no error adds up over a stream.
    @inline(__always)
    private mutating func cacheIntervalTerms(_ interval: Double) {
        guard abs(interval - cachedInterval) > 1e-9 else { return }
        cachedInterval = interval
        inverseInterval = 1 / interval
        let step = interval - anchorInterval
        let gravityStep = step * inverseGravityTimeConstant
        let shapeStep = step * inverseSustainedWindow
        guard abs(gravityStep) <= Self.seriesStepLimit, abs(shapeStep) <= Self.seriesStepLimit else {
            anchorInterval = interval
            anchorGravityDecay = exp(-interval / settings.gravityTimeConstant)
            anchorShapeDecay = exp(-interval / settings.sustainedWindow)
            gravityDecay = anchorGravityDecay
            shapeDecay = anchorShapeDecay
            return
        }
        gravityDecay = anchorGravityDecay * Self.decaySeries(gravityStep)
        shapeDecay = anchorShapeDecay * Self.decaySeries(shapeStep)
    }

    /// How far, in time constants, an interval may be from the anchor's for its decays to come from the anchor's.
    static let seriesStepLimit = 0.001

    /// exp(−x) for |x| ≤ ``seriesStepLimit``: 1 − x + x²/2 − x³/6.
    @inline(__always)
    static func decaySeries(_ x: Double) -> Double {
        1 - x * (1 - x * (0.5 - x * (1.0 / 6)))
    }

    /// Updates the gravity estimate: an exponential average whose weights follow the real sample intervals.
    @inline(__always)
    private mutating func updateGravity(with sample: AccelSample, interval: Double) {
        guard interval > 0 else { return }
        // The first sample weighs as much as the first interval, so the cold-start estimate is a plain mean.
        if gravityWeight == 0 { gravityWeight = interval }
        gravityWeight = gravityWeight * gravityDecay + interval
        let gain = interval / gravityWeight
        gravityX += (sample.x - gravityX) * gain
        gravityY += (sample.y - gravityY) * gain
        gravityZ += (sample.z - gravityZ) * gain
    }

    /// Restarts the estimate and the windows, keeping the cooldown.
    private mutating func restart() {
        brisk.clear()
        sustained.clear()
        shape = MotionShape()
        started = false
        gravityWeight = 0
        waiting = nil
        briskWithheld = false
    }
}

/// Below 20 Hz, a brisk trigger held back until the motion comes back from the strong sample it would have fired on.
struct CoarseConfirmation: Sendable {
    /// The strong sample's motion.
    var direction: Motion
    /// Its timestamp, seconds.
    var time: Double
    /// When the strong sample reversed a stroke beyond ``ShakeDetector/coarseJoltMagnitude``: that stroke's strongest
    /// sample, whose direction the way back is measured against (zero otherwise).
    private var jolt = Motion(x: 0, y: 0, z: 0)
    /// That sample's impulse times its magnitude, |jolt|²·dt (so that the way back compares without a square root).
    private var joltImpulse = 0.0
    /// The impulse of the way back so far, times |jolt|: Σ max(0, −a·jolt)·dt.
    private var returnImpulse = 0.0

    init(direction: Motion, time: Double) {
        self.direction = direction
        self.time = time
    }

    /// Measures the way back against `stroke`, a stroke's strongest sample taken `interval` seconds after the one
    /// before it.
    mutating func watchReturn(against stroke: Motion, impulse interval: Double) {
        jolt = stroke
        joltImpulse = stroke.magnitudeSquared * interval
    }

    /// Adds a sample's motion, `interval` seconds after the previous one, to the way back (its part against the jolt).
    @inline(__always)
    mutating func addReturn(_ motion: Motion, interval: Double) {
        let dot = motion.dot(jolt)
        if dot < 0 { returnImpulse -= dot * interval }
    }

    /// Whether the way back carried at least `share` of the jolt's impulse (always, when no jolt is watched):
    /// Σ(−a·ĵ)dt ≥ share·|jolt|·dt  ⇔  Σ(−a·jolt)dt ≥ share·|jolt|²·dt.
    func returnedImpulse(share: Double) -> Bool {
        returnImpulse >= share * joltImpulse
    }

    /// Whether `motion` came back: along ``direction`` below the root of `belowSquared` m/s², or pointing back.
    /// dot/|direction| < level  ⇔  dot < 0 or dot² < level²·|direction|².
    @inline(__always)
    func cameBack(_ motion: Motion, belowSquared: Double) -> Bool {
        let dot = motion.dot(direction)
        return dot < 0 || dot * dot < belowSquared * direction.magnitudeSquared
    }
}

/// Gravity-removed acceleration, m/s².
struct Motion: Sendable {
    var x: Double
    var y: Double
    var z: Double

    var magnitudeSquared: Double { x * x + y * y + z * z }

    func dot(_ other: Motion) -> Double { x * other.x + y * other.y + z * other.z }
}

/// What the recent motion looks like as a whole: the power of the gravity-removed acceleration a, of its rate of
/// change and of its part along gravity, as running sums Σ x²·dt, and how far its direction turned, Σ a × Δa, all
/// forgetting with the sustained window's length as time constant.
///
/// Their ratios give the motion's frequency, √(Σ|da/dt|² / Σ|a|²) / 2π (exact for a sine; below about 20 Hz
/// sampling the finite differences keep it under a third of the sample rate), its share along gravity, and its
/// rotation (see ``isTurning(maximumRotationSquared:)``).
struct MotionShape: Sendable {
    private var power = 0.0
    private var changePower = 0.0
    private var verticalPower = 0.0
    private var turnX = 0.0
    private var turnY = 0.0
    private var turnZ = 0.0
    private var hasPrevious = false
    private var previous = Motion(x: 0, y: 0, z: 0)

    /// Adds a sample's motion taken `interval` seconds after the previous one (`vertical`: its part along gravity);
    /// `decay` is exp(-interval / time constant).
    @inline(__always)
    mutating func add(_ motion: Motion, vertical: Double, interval: Double, inverseInterval: Double, decay: Double) {
        let change = Motion(x: motion.x - previous.x, y: motion.y - previous.y, z: motion.z - previous.z)
        power = power * decay + motion.magnitudeSquared * interval
        verticalPower = verticalPower * decay + vertical * vertical * interval
        changePower = changePower * decay + (hasPrevious ? change.magnitudeSquared * inverseInterval : 0)
        // previous × motion = previous × change: how far the direction turned, weighted by both magnitudes.
        if hasPrevious {
            turnX = turnX * decay + previous.y * motion.z - previous.z * motion.y
            turnY = turnY * decay + previous.z * motion.x - previous.x * motion.z
            turnZ = turnZ * decay + previous.x * motion.y - previous.y * motion.x
        }
        hasPrevious = true
        previous = motion
    }

    /// Whether the motion is slow enough and across gravity enough for a hand shaking the device.
    @inline(__always)
    func isShake(maximumAngularFrequencySquared: Double, maximumVerticalShare: Double) -> Bool {
        // frequency ≤ maximum  ⇔  Σ|da/dt|² ≤ (2π·maximum)²·Σ|a|²: no square root.
        changePower <= maximumAngularFrequencySquared * power && verticalPower <= maximumVerticalShare * power
    }

    /// Whether the motion is steady: its strongest recent sample (`peakSquared`, its squared magnitude) is at most
    /// `maximumCrestSquared`'s root times the root mean square of the recent motion (Σ|a|²·dt over `timeConstant`),
    /// the crest factor (√2 for a sine). A few jolts between weaker motion are not steady shaking.
    @inline(__always)
    func isSteady(peakSquared: Double, maximumCrestSquared: Double, timeConstant: Double) -> Bool {
        peakSquared * timeConstant <= maximumCrestSquared * power
    }

    /// Whether the motion's direction keeps turning one way, as round a circle or an ellipse drawn in the air,
    /// rather than going back and forth: the rotation |Σ a × Δa| over its bound √(Σ|a|²·dt · Σ|Δa|²/dt) (Cauchy–Schwarz)
    /// exceeds `maximumRotationSquared`'s root. 1 for a circle, 2r / (1 + r²) for an ellipse whose minor axis is r
    /// times its major one, 0 on a line; a shake that wobbles without going round stays low, since its turns cancel.
    @inline(__always)
    func isTurning(maximumRotationSquared: Double) -> Bool {
        let turnSquared = turnX * turnX + turnY * turnY + turnZ * turnZ
        return turnSquared > maximumRotationSquared * power * changePower
    }
}

/// One judged window: above-threshold time and reversals over the last `window` seconds, kept in time slots.
struct WindowTally: Sendable {
    /// The window's time slots: a power of two of them, inline (no heap, no reference count and no uniqueness check
    /// on each write, as an array would have).
    private typealias Slots = InlineArray<32, Slot>

    /// How many time slots the window is divided into (a power of two).
    static var slotCount: Int { Slots.count }

    /// How reversals are recognised; the sustained window uses only the first rule.
    struct ReversalRules: Sendable {
        /// Cosine between successive above-threshold samples below which they count as a reversal (0: any angle
        /// past 90°).
        var successiveCosine: Double
        /// When set, a sample pointing back against the strongest sample of the current stroke by more than this
        /// cosine counts too: a stroke whose direction turns gradually (an elliptical shake) still reverses.
        var strokeCosine: Double?
        /// When set, below 20 Hz a strong sample also counts when the motion fell below this many m/s² along the
        /// previous strong sample's direction (or pointed back) in between, or when it is stronger than
        /// ``coarseUnmistakable``.
        var coarseDip: Double?
        /// Magnitude, m/s², above which a coarse strong sample counts as a reversal on its own, unless its cosine to
        /// the previous strong sample exceeds ``sameStrokeCosine`` (the same stroke, growing).
        var coarseUnmistakable: Double
        /// See ``coarseUnmistakable``.
        var sameStrokeCosine: Double
    }

    private struct Slot {
        var activeTime = 0.0
        var reversals: Int32 = 0
        var peakSquared = 0.0
    }

    private let window: Double
    private let slotsPerSecond: Double
    private let thresholdSquared: Double
    private let coarseThresholdSquared: Double
    private let requiredActiveTime: Double
    private let requiredReversals: Int
    private let requiredCoarseReversals: Int
    private let successiveCosineSquared: Double
    private let successiveCosineIsNegative: Bool
    private let usesStroke: Bool
    private let strokeCosineSquared: Double
    private let countsCoarseSamples: Bool
    private let coarseDipSquared: Double
    private let coarseUnmistakableSquared: Double
    private let sameStrokeCosineSquared: Double

    private var slots = Slots(repeating: Slot())
    private var currentSlot: Int64 = .min
    private var activeTime = 0.0
    private var reversals = 0

    private var hasReference = false
    private var reference = Motion(x: 0, y: 0, z: 0)
    private var referenceMagnitudeSquared = 0.0
    private var referenceTime = 0.0
    private var strokePeak = Motion(x: 0, y: 0, z: 0)
    private var strokePeakMagnitudeSquared = 0.0
    private var strokePeakInterval = 0.0
    private var dippedSinceReference = false

    /// Whether the last sample added counted as a reversal.
    private(set) var lastSampleReversed = false
    /// When the last sample added counted as a reversal: the strongest sample of the stroke it reversed, and the
    /// interval before that sample, seconds.
    private(set) var reversedStroke: (peak: Motion, interval: Double)?

    /// Creates an empty window; `reversals` are needed at 20 Hz and above, `coarseReversals` below.
    init(
        threshold: Double, coarseThreshold: Double, window: Double, activeFraction: Double, reversals: Int,
        coarseReversals: Int, rules: ReversalRules
    ) {
        self.window = window
        slotsPerSecond = Double(Self.slotCount) / window
        thresholdSquared = threshold * threshold
        coarseThresholdSquared = coarseThreshold * coarseThreshold
        requiredActiveTime = activeFraction * window - 1e-9
        requiredReversals = reversals
        requiredCoarseReversals = coarseReversals
        successiveCosineSquared = rules.successiveCosine * rules.successiveCosine
        successiveCosineIsNegative = rules.successiveCosine < 0
        usesStroke = rules.strokeCosine != nil
        strokeCosineSquared = (rules.strokeCosine ?? 0) * (rules.strokeCosine ?? 0)
        countsCoarseSamples = rules.coarseDip != nil
        coarseDipSquared = (rules.coarseDip ?? 0) * (rules.coarseDip ?? 0)
        coarseUnmistakableSquared = rules.coarseUnmistakable * rules.coarseUnmistakable
        sameStrokeCosineSquared = rules.sameStrokeCosine * rules.sameStrokeCosine
    }

    /// Adds one sample's motion; returns whether the window qualifies with this sample above the threshold (a window
    /// that still qualifies from earlier samples does not fire on a weak one: the shake may have stopped).
    mutating func add(_ motion: Motion, at time: Double, interval: Double, coarse: Bool) -> Bool {
        let position = advance(to: time)
        let magnitudeSquared = motion.magnitudeSquared
        let hasRecentReference = hasReference && time - referenceTime <= window
        let isActive = magnitudeSquared > (coarse ? coarseThresholdSquared : thresholdSquared)
        lastSampleReversed = false
        reversedStroke = nil
        if isActive {
            slots[position].activeTime += interval
            activeTime += interval
            if magnitudeSquared > slots[position].peakSquared { slots[position].peakSquared = magnitudeSquared }
            let reversed = hasRecentReference && isReversal(motion, magnitudeSquared, coarse: coarse)
            lastSampleReversed = reversed
            if reversed { reversedStroke = (strokePeak, strokePeakInterval) }
            // Repeated timestamps add samples without moving the window: saturate rather than overflow.
            if reversed && slots[position].reversals < .max {
                slots[position].reversals += 1
                reversals += 1
            }
            if reversed || !hasRecentReference || magnitudeSquared > strokePeakMagnitudeSquared {
                strokePeak = motion
                strokePeakMagnitudeSquared = magnitudeSquared
                strokePeakInterval = interval
            }
            hasReference = true
            reference = motion
            referenceMagnitudeSquared = magnitudeSquared
            referenceTime = time
            dippedSinceReference = false
        } else if coarse && countsCoarseSamples && hasRecentReference && !dippedSinceReference {
            // Along the reference direction: dot/|reference| < dip  ⇔  dot < 0 or dot² < dip²·|reference|².
            let dot = motion.dot(reference)
            dippedSinceReference = dot < 0 || dot * dot < coarseDipSquared * referenceMagnitudeSquared
        }
        let required = coarse ? requiredCoarseReversals : requiredReversals
        return isActive && activeTime >= requiredActiveTime && reversals >= required
    }

    /// Whether `motion` reverses the stroke: against the previous strong sample, against the stroke's peak, or
    /// (below 20 Hz) after a dip or beyond what turning the device can fake.
    @inline(__always)
    private func isReversal(_ motion: Motion, _ magnitudeSquared: Double, coarse: Bool) -> Bool {
        if Self.pointsBack(
            motion.dot(reference), magnitudeSquared * referenceMagnitudeSquared, successiveCosineSquared,
            strict: successiveCosineIsNegative)
        {
            return true
        }
        if usesStroke
            && Self.pointsBack(
                motion.dot(strokePeak), magnitudeSquared * strokePeakMagnitudeSquared, strokeCosineSquared,
                strict: true)
        {
            return true
        }
        guard coarse && countsCoarseSamples else { return false }
        if dippedSinceReference { return true }
        guard magnitudeSquared > coarseUnmistakableSquared else { return false }
        // Pointing the way the previous strong sample did: the same stroke, growing.
        let dot = motion.dot(reference)
        return !(dot > 0 && dot * dot > sameStrokeCosineSquared * magnitudeSquared * referenceMagnitudeSquared)
    }

    /// The active time the window still lacks to qualify, seconds: a sample adds at most the time since the one
    /// before, so it cannot qualify sooner.
    var activeTimeLacking: Double { max(0, requiredActiveTime - activeTime) }

    /// Whether the window holds no more reversals than it needs (at 20 Hz and above, or below when `coarse`).
    func hasFewestReversals(coarse: Bool) -> Bool {
        reversals <= (coarse ? requiredCoarseReversals : requiredReversals)
    }

    /// Whether two vectors with dot product `dot` and squared magnitudes' product `magnitudes` point apart by more
    /// than the angle whose squared (negative) cosine is `cosineSquared`; with `strict` false, any angle past 90°.
    /// cos < c (c < 0)  ⇔  dot < 0 and dot² > c²·|a|²·|b|²: no square roots per sample.
    @inline(__always)
    private static func pointsBack(_ dot: Double, _ magnitudes: Double, _ cosineSquared: Double, strict: Bool) -> Bool {
        dot < 0 && (!strict || dot * dot > cosineSquared * magnitudes)
    }

    /// The largest squared magnitude above the threshold in the window.
    func peakSquared() -> Double {
        var peak = 0.0
        let slots = self.slots.span
        for position in slots.indices where slots[position].peakSquared > peak { peak = slots[position].peakSquared }
        return peak
    }

    /// Moves the window so that it ends in the slot holding `time`; returns that slot's position.
    @inline(__always)
    private mutating func advance(to time: Double) -> Int {
        let slot = Self.slotNumber(time * slotsPerSecond)
        let count = Int64(Self.slotCount)
        if slot != currentSlot {
            if currentSlot == .min || slot - currentSlot >= count {
                clearSlots()
            } else {
                var next = currentSlot + 1
                while next <= slot {
                    let position = Int(next & (count - 1))
                    activeTime -= slots[position].activeTime
                    reversals -= Int(slots[position].reversals)
                    slots[position] = Slot()
                    next += 1
                }
                if activeTime < 0 { activeTime = 0 }
            }
            currentSlot = slot
        }
        return Int(slot & (count - 1))
    }

    /// The number of the slot holding `slotTime` (time × slots per second), clamped to ±2⁶²: beyond that (times past
    /// about 10¹⁷ s) every time falls into one slot, without trapping and without overflowing `slot - currentSlot`.
    @inline(__always)
    static func slotNumber(_ slotTime: Double) -> Int64 {
        let limit = 4.611_686_018_427_387_904e18  // 2⁶²
        guard slotTime > -limit else { return -(1 << 62) }
        guard slotTime < limit else { return 1 << 62 }
        // Floor by truncation: `rounded(.down)` is a call into libm on the baseline x86-64, twice a sample.
        let truncated = Int64(slotTime)
        return Double(truncated) > slotTime ? truncated - 1 : truncated
    }

    private mutating func clearSlots() {
        for position in slots.indices { slots[position] = Slot() }
        activeTime = 0
        reversals = 0
    }

    /// Empties the window and forgets the reference direction.
    mutating func clear() {
        clearSlots()
        currentSlot = .min
        hasReference = false
        strokePeakMagnitudeSquared = 0
        dippedSinceReference = false
        lastSampleReversed = false
        reversedStroke = nil
    }
}

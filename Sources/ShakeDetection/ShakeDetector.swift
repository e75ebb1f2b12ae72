import ShakyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a stream of accelerometer samples into shake events: a threshold/cooldown detector.
///
/// For each sample it
/// 1. removes gravity with a running estimate (an exponential average over ``ShakeDetectorSettings/gravityTimeConstant``
///    seconds, weighted by the real time between samples, scaled to standard gravity);
/// 2. marks the sample *active* when the remaining acceleration exceeds ``ShakeDetectorSettings/threshold``, and
///    counts a *reversal* when an active sample points against the previous active one;
/// 3. fires when, over the last ``ShakeDetectorSettings/window`` seconds, active samples cover at least
///    ``ShakeDetectorSettings/activeFraction`` of the time and there were at least
///    ``ShakeDetectorSettings/minimumReversals`` reversals — then ignores everything for
///    ``ShakeDetectorSettings/cooldown`` seconds.
///
/// The window is kept as a fixed number of time slots, so memory is constant and nothing is allocated per sample.
/// Pure: time comes only from the samples' timestamps.
public struct ShakeDetector: Sendable {
    /// The settings in use (validated).
    public let settings: ShakeDetectorSettings

    /// How many time slots the window is divided into.
    static let slotCount = 32

    private struct Slot {
        var index: Int64 = .min
        var activeTime = 0.0
        var reversals: Int32 = 0
        var peakSquared = 0.0
    }

    private let slotsPerSecond: Double
    private let thresholdSquared: Double
    private let requiredActiveTime: Double
    private var slots: ContiguousArray<Slot>
    private var currentSlot: Int64 = .min
    private var activeTime = 0.0
    private var reversals = 0

    private var started = false
    private var lastTimestamp = 0.0
    private var gravityX = 0.0
    private var gravityY = 0.0
    private var gravityZ = 0.0
    private var gravityWeight = 0.0
    private var cachedInterval = -1.0
    private var cachedDecay = 0.0

    private var hasReference = false
    private var referenceX = 0.0
    private var referenceY = 0.0
    private var referenceZ = 0.0
    private var referenceTime = 0.0

    private var cooldownEnd = -Double.infinity

    /// Creates a detector in its cold-start state; throws when `settings` are invalid.
    public init(settings: ShakeDetectorSettings = .medium) throws(ShakeDetectorSettingsError) {
        try settings.validate()
        self.settings = settings
        slotsPerSecond = Double(Self.slotCount) / settings.window
        thresholdSquared = settings.threshold * settings.threshold
        requiredActiveTime = settings.activeFraction * settings.window - 1e-9
        slots = ContiguousArray(repeating: Slot(), count: Self.slotCount)
    }

    /// Creates a detector with the preset for `sensitivity`.
    public init(sensitivity: ShakeSensitivity) {
        // The presets are valid by construction (checked by the tests).
        try! self.init(settings: ShakeDetectorSettings(sensitivity: sensitivity))
    }

    /// Forgets everything seen so far, as if newly created.
    public mutating func reset() {
        restart()
        cooldownEnd = -.infinity
    }

    /// Feeds one sample; returns an event when the detector fires at this sample.
    ///
    /// Samples should arrive in timestamp order. A gap longer than ``ShakeDetectorSettings/maximumGap`` restarts the
    /// gravity estimate and the window (the cooldown still runs); a timestamp that goes backwards resets everything.
    /// A repeated timestamp adds no time. Samples with non-finite values are ignored.
    public mutating func process(_ sample: AccelSample) -> ShakeEvent? {
        let time = sample.timestamp
        guard time.isFinite, sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { return nil }
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
        updateGravity(with: sample, interval: interval)

        let gravityNormSquared = gravityX * gravityX + gravityY * gravityY + gravityZ * gravityZ
        let scale = gravityNormSquared > 0 ? AccelSample.standardGravity / gravityNormSquared.squareRoot() : 0
        let dx = sample.x - gravityX * scale
        let dy = sample.y - gravityY * scale
        let dz = sample.z - gravityZ * scale
        let magnitudeSquared = dx * dx + dy * dy + dz * dz

        let position = advanceWindow(to: time)
        if magnitudeSquared > thresholdSquared {
            slots[position].activeTime += interval
            activeTime += interval
            if magnitudeSquared > slots[position].peakSquared { slots[position].peakSquared = magnitudeSquared }
            if hasReference, time - referenceTime <= settings.window,
                dx * referenceX + dy * referenceY + dz * referenceZ < 0
            {
                slots[position].reversals += 1
                reversals += 1
            }
            hasReference = true
            referenceX = dx
            referenceY = dy
            referenceZ = dz
            referenceTime = time
        }

        guard time >= cooldownEnd, activeTime >= requiredActiveTime, reversals >= settings.minimumReversals else {
            return nil
        }
        cooldownEnd = time + settings.cooldown
        return ShakeEvent(timestamp: time, peakMagnitude: windowPeakSquared().squareRoot())
    }

    /// Updates the gravity estimate: an exponential average whose weights follow the real sample intervals.
    private mutating func updateGravity(with sample: AccelSample, interval: Double) {
        guard interval > 0 else { return }
        // Intervals of a steady stream differ only by rounding: reuse the decay when within a nanosecond.
        if abs(interval - cachedInterval) > 1e-9 {
            cachedInterval = interval
            cachedDecay = exp(-interval / settings.gravityTimeConstant)
        }
        // The first sample weighs as much as the first interval, so the cold-start estimate is a plain mean.
        if gravityWeight == 0 { gravityWeight = interval }
        gravityWeight = gravityWeight * cachedDecay + interval
        let gain = interval / gravityWeight
        gravityX += (sample.x - gravityX) * gain
        gravityY += (sample.y - gravityY) * gain
        gravityZ += (sample.z - gravityZ) * gain
    }

    /// Moves the window so that it ends in the slot holding `time`; returns that slot's position.
    private mutating func advanceWindow(to time: Double) -> Int {
        let slot = Int64((time * slotsPerSecond).rounded(.down))
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
                    slots[position] = Slot(index: next)
                    next += 1
                }
                if activeTime < 0 { activeTime = 0 }
            }
            currentSlot = slot
        }
        return Int(slot & (count - 1))
    }

    private func windowPeakSquared() -> Double {
        var peak = 0.0
        for slot in slots where slot.peakSquared > peak { peak = slot.peakSquared }
        return peak
    }

    private mutating func clearSlots() {
        for position in slots.indices { slots[position] = Slot() }
        activeTime = 0
        reversals = 0
    }

    /// Restarts the estimate and the window, keeping the cooldown.
    private mutating func restart() {
        clearSlots()
        currentSlot = .min
        started = false
        gravityWeight = 0
        hasReference = false
    }
}

import ShakyDrivers
import Testing

/// A buffered IIO device that stamps its scans with the wall clock (`current_timestamp_clock` left at `realtime`),
/// read while the wall clock is stepped: sample times stay on CLOCK_MONOTONIC, across the step and the wake-up
/// that reads the scans stamped before it.
@Suite struct IIOTimestampClockTests {
    /// Seconds in three years: NTP's first answer on a board that booted with a clock saved long ago.
    static let threeYears = 3 * 365 * 86_400.0

    /// Samples at 100 Hz from monotonic 10 s to 12 s, read every 100 ms; the wall clock is stepped by `step` at
    /// monotonic 10.55 s (between two wake-ups) from `wallAhead` seconds ahead of CLOCK_MONOTONIC. Returns the true times
    /// and the times the clock gave.
    static func readAcrossStep(
        clockName: String = "realtime", wallAhead: Double, step: Double
    ) -> (truth: [Double], read: [Double]) {
        let stepAt = 10.55
        func wallMinusMonotonic(at monotonic: Double) -> Double { monotonic < stepAt ? wallAhead : wallAhead + step }
        var clock = IIOTimestampClock(
            clockName: clockName, realtimeMinusMonotonic: wallMinusMonotonic(at: 10), boottimeMinusMonotonic: 0)
        var truth: [Double] = []
        var read: [Double] = []
        var next = 1000  // hundredths of a second
        for wakeUp in stride(from: 1010, through: 1200, by: 10) {
            let now = Double(wakeUp) / 100
            clock.measure(
                realtimeMinusMonotonic: wallMinusMonotonic(at: now), boottimeMinusMonotonic: 0, monotonicNow: now)
            while next <= wakeUp {
                let taken = Double(next) / 100
                let kernelStamp = taken + wallMinusMonotonic(at: taken)
                truth.append(taken)
                read.append(clock.sampleTime(kernelStamp))
                next += 1
            }
        }
        return (truth, read)
    }

    @Test("NTP steps the wall clock three years forward in a game: the sample times do not jump")
    func forwardStepOfYears() {
        // Booted without a saved clock: the wall clock starts near 1970, a few seconds ahead of CLOCK_MONOTONIC.
        let (truth, read) = Self.readAcrossStep(wallAhead: 3, step: Self.threeYears)
        #expect(read.count == truth.count)
        for (index, time) in read.enumerated() {
            #expect(abs(time - truth[index]) < 1e-6, "sample \(index): \(time) for \(truth[index])")
        }
    }

    @Test("The wall clock is set an hour back: the sample times go on, neither back nor an hour ahead")
    func backwardStepOfAnHour() {
        let (truth, read) = Self.readAcrossStep(wallAhead: 1_795_000_000, step: -3600)
        for (index, time) in read.enumerated() {
            #expect(abs(time - truth[index]) < 1e-6, "sample \(index): \(time) for \(truth[index])")
        }
        #expect(zip(read, read.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("A device on boottime across a suspend: the samples after it keep CLOCK_MONOTONIC")
    func boottimeAcrossSuspend() {
        var clock = IIOTimestampClock(clockName: "boottime", realtimeMinusMonotonic: 0, boottimeMinusMonotonic: 2)
        clock.measure(realtimeMinusMonotonic: 0, boottimeMinusMonotonic: 2, monotonicNow: 20)
        #expect(clock.sampleTime(21.99) == 19.99)
        // Asleep for ten minutes: CLOCK_BOOTTIME ran on, CLOCK_MONOTONIC did not.
        clock.measure(realtimeMinusMonotonic: 0, boottimeMinusMonotonic: 602, monotonicNow: 20.1)
        #expect(abs(clock.sampleTime(22.0) - 20.0) < 1e-9)  // stamped before the suspend, read after it
        #expect(abs(clock.sampleTime(622.05) - 20.05) < 1e-9)
    }

    @Test("Stamps no difference explains are held between the last sample and the wake-up, and never trap")
    func implausibleStampsAreHeld() {
        var clock = IIOTimestampClock(clockName: "realtime", realtimeMinusMonotonic: 100, boottimeMinusMonotonic: 0)
        clock.measure(realtimeMinusMonotonic: 100, boottimeMinusMonotonic: 0, monotonicNow: 50)
        #expect(abs(clock.sampleTime(149.9) - 49.9) < 1e-9)
        #expect(clock.sampleTime(1e18) == 50 + 0.05)  // from the future
        #expect(clock.sampleTime(-1e18) == 50.05)  // from long ago: not before the last sample
        #expect(clock.sampleTime(.nan).isNaN)  // left for the detector, which ignores it
        clock.measure(realtimeMinusMonotonic: 100, boottimeMinusMonotonic: 0, monotonicNow: 50.1)
        #expect(abs(clock.sampleTime(150.08) - 50.08) < 1e-9)
    }

    @Test("A device on monotonic is taken as it stamps, even when its stamps go back")
    func monotonicIsTakenAsStamped() {
        var clock = IIOTimestampClock(clockName: "monotonic", realtimeMinusMonotonic: 100, boottimeMinusMonotonic: 5)
        clock.measure()
        #expect(clock.sampleTime(7) == 7)
        #expect(clock.sampleTime(3) == 3)
    }
}

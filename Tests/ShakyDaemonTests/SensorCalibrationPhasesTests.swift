import Testing

@testable import ShakyDaemon

/// A calibration's steps are timed on the samples' own times, which a device on the wall clock lets jump.
@Suite struct SensorCalibrationPhasesTests {
    /// Feeds samples at 64 Hz (times exact in binary) whose times jump by `jump` seconds after the first second,
    /// until the calibration (3 s shaking, 1 s to stop, 2 s holding still) is done; the phase of each sample.
    static func phases(jumpingBy jump: Double) -> [SensorCalibrationPhases.Phase] {
        var phases = SensorCalibrationPhases(shakingSeconds: 3, stillSeconds: 2)
        var seen: [SensorCalibrationPhases.Phase] = []
        var index = 0
        while !phases.isDone, index < SensorCalibrationPhases.sampleLimit {
            let time = 1000 + Double(index) / 64 + (index >= 64 ? jump : 0)
            seen.append(phases.phase(of: time))
            index += 1
        }
        return seen
    }

    @Test("Steady times: three seconds of shaking, one to stop, two of holding still")
    func steadyTimes() {
        let seen = Self.phases(jumpingBy: 0)
        #expect(seen.filter { $0 == .shaking }.count == 3 * 64)
        #expect(seen.filter { $0 == .holdingStill }.count == 2 * 64)
        #expect(seen.count == 6 * 64 + 1)
        #expect(seen.last == .done)
    }

    @Test(
        "The wall clock stepped during a calibration moves its steps by half a second at most",
        arguments: [3 * 365 * 86_400.0, -3600])
    func jumpingTimes(jump: Double) {
        let seen = Self.phases(jumpingBy: jump)
        // Neither over at once (forward) nor held for the hour (backward).
        #expect(seen.count >= 6 * 64 + 1 - 32 && seen.count <= 6 * 64 + 2, "\(seen.count) samples")
        #expect(seen.filter { $0 == .shaking }.count >= 3 * 64 - 32)
        #expect(seen.filter { $0 == .holdingStill }.count == 2 * 64)
    }
}

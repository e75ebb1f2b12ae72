import Foundation
import ShakyTesting
import Testing

@testable import ShakeDetection

/// ``WindowTally/slotNumber(_:)`` floors by truncation: it must agree with `rounded(.down)` everywhere.
@Suite struct WindowSlotNumberTests {
    private static func floored(_ slotTime: Double) -> Int64 {
        let limit = 4.611_686_018_427_387_904e18  // 2⁶²
        let floor = slotTime.rounded(.down)
        guard floor > -limit else { return -(1 << 62) }
        guard floor < limit else { return 1 << 62 }
        return Int64(floor)
    }

    @Test func agreesWithFloorOnWholeNumbersTheirNeighboursAndTheLimits() {
        let limit = 4.611_686_018_427_387_904e18
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 1e15 + 0.5, -1e15 - 0.5, .nan]
        values += [limit, -limit, limit.nextDown, (-limit).nextUp, .infinity, -.infinity]
        values += [.greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for whole in [1.0, 2, 3, 31, 32, 1000, 123_456_789, 4_503_599_627_370_496] {
            for value in [whole, -whole] { values += [value, value.nextUp, value.nextDown] }
        }
        for value in values {
            #expect(WindowTally.slotNumber(value) == Self.floored(value), "at \(value)")
        }
    }

    @Test func agreesWithFloorOnRandomTimes() {
        var generator = SplitMix64(seed: 0x5_1071)
        for _ in 0..<100_000 {
            let magnitude = Double.random(in: -20...19, using: &generator)
            let value = Double.random(in: -1...1, using: &generator) * pow(10, magnitude)
            #expect(WindowTally.slotNumber(value) == Self.floored(value), "at \(value)")
        }
    }
}
